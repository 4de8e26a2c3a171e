import { runService } from '@lakecams/service-kit';
import { webcamService } from './app.ts';

await runService(webcamService, {
  demoCameras: process.env.DEMO_CAMERAS === 'true',
  demoSourceUrl: process.env.DEMO_SOURCE_URL,
});
