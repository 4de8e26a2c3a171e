import { Id } from '@lakecams/service-kit';
import { Type } from 'typebox';

export { ErrorSchema } from '@lakecams/service-kit';

/** `?webcamId=`: the camera an admin's call is about. */
export const WebcamIdQuery = Type.Object({ webcamId: Id() });

/** An embedded player frame's page pass (routes/api/Image/embed.ts signs it), carried by its requests. */
export const EmbedPass = Type.Optional(
  Type.String({ maxLength: 3000, description: "An embedded player frame's page pass" }),
);
