import { exitOnConfigError, publicKeyOf, runService } from '@lakecams/service-kit';
import { identityService } from './app.ts';
import { identityOptionsFromConfig, loadIdentityConfig } from './config.ts';

const options = exitOnConfigError(() =>
  identityOptionsFromConfig(loadIdentityConfig(), {
    onDemoAdminCreated: ({ username, password }) =>
      console.log(`\nDemo administrator created: username ${username}, password ${password} (shown only now)\n`),
  }),
);

// The service verifies its own tokens with the public half of its key.
process.env.JWT_PUBLIC_KEY ??= publicKeyOf(options.jwtPrivateKey);

await runService(identityService, options);
