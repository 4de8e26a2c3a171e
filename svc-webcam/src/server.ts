import { exitOnConfigError, runService } from '@lakecams/service-kit';
import { webcamService } from './app.ts';
import { loadWebcamConfig, webcamOptionsFromConfig } from './config.ts';

const options = exitOnConfigError(() => webcamOptionsFromConfig(loadWebcamConfig()));

await runService(webcamService, options);
