import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; a busy 2-core machine can take longer to render.
configure({ asyncUtilTimeout: 10_000 });
