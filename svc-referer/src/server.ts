import { runService } from '@lakecams/service-kit';
import { refererService } from './app.ts';

await runService(refererService);
