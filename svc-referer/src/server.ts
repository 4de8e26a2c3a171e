import { exitOnConfigError, runService } from '@lakecams/service-kit';
import { refererService } from './app.ts';
import { loadRefererConfig, refererOptionsFromConfig } from './config.ts';

const options = exitOnConfigError(() => refererOptionsFromConfig(loadRefererConfig()));

await runService(refererService, options);
