import type { ServiceName } from '@lakecams/contracts';
import type { ServiceDefinition } from '@lakecams/service-kit';
import { identityService } from '@lakecams/svc-identity';
import { imagingService } from '@lakecams/svc-imaging';
import { refererService } from '@lakecams/svc-referer';
import { webcamService } from '@lakecams/svc-webcam';

// biome-ignore lint/suspicious/noExplicitAny: each service has its own options and tables
export const SERVICE_DEFINITIONS: Record<ServiceName, ServiceDefinition<any, any>> = {
  identity: identityService,
  webcam: webcamService,
  referer: refererService,
  imaging: imagingService,
};
