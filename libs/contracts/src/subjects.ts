/** Bus subjects (docs/architecture.md, "The bus"). */
export const SUBJECTS = {
  cameraUpserted: 'webcam.camera.upserted',
  cameraDeleted: 'webcam.camera.deleted',
  accessChanged: 'webcam.access.changed',
  /** Core (live) message once the camera list shows a new image: open pages update from it. */
  imageListed: 'webcam.image.listed',
  layerChanged: 'referer.layer.changed',
  /** Request: `{ layerId, offset }` → `LayerImageChunk | null` (the layer's PNG, in pieces). */
  layerImage: 'referer.layer.image',
  /** Request: `{ userId, url }` → whether that user has the referer page `url`. */
  pageOwned: 'referer.page.owned',
  /** Request: `{ refererUserIds: number[] | null }` → the cameras booked for them (all for null). */
  bookedCameras: 'webcam.cameras.booked',
  imageCaptured: 'imaging.image.captured',
  captureFailed: 'imaging.capture.failed',
  /** `ImagesThinned`: the archive tiers left a camera's day with only these pictures. */
  imagesThinned: 'imaging.images.thinned',
  /** `BestOfChosen`: an admin chose a day's best picture (or gave the choice back to the score). */
  bestOfChosen: 'webcam.bestof.chosen',
  userChanged: 'identity.user.changed',
  /** `AccessRevocation`: access tokens refused from now on (log-off); every replica of every service follows it. */
  accessRevoked: 'identity.access.revoked',
  mailSend: 'mail.send',
} as const;
