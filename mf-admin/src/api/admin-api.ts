import type {
  CameraConfiguration,
  CameraListItem,
  CameraSource,
  CameraSourceUpdate,
  ConnectionTestResult,
  Layer,
  LayerLevel,
  OwnedCodeAssignment,
  Quality,
  RefererBooking,
  RefererUser,
  StreamTransport,
  UserRef,
  UserSummary,
  Webcam,
} from '@lakecams/contracts';

export type { CameraConfiguration, RefererBooking, UserRef } from '@lakecams/contracts';
import { type ApiClient, ApiError } from '@lakecams/session';

export interface ImagePosition {
  webcamId: number;
  lat: number;
  lng: number;
  direction: number;
  /** The image from which on the position holds, `yyyyMMddHHmm`. */
  name: string;
}

/** What "Verbindung testen" sends: a password left out is the stored one (with the stored user). */
export interface ConnectionTestRequest {
  kind: 'http' | 'stream';
  url: string;
  username?: string;
  password?: string;
  transport?: StreamTransport;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** What a layer save sends (SetLayer); `file` undefined keeps the stored image. */
export interface LayerSave {
  id: number | null;
  url: string;
  level: LayerLevel;
  cron: string;
  enabled: boolean;
  cameraId: number;
  file?: Blob | undefined;
}

export const jsonBody = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export const withQuery = (path: string, query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return `${path}?${params}`;
};

/** A boolean call answering `false` failed as well. */
async function expectTrue(result: Promise<boolean>, path: string): Promise<void> {
  if (!(await result)) throw new ApiError(200, path);
}

/** `GET /api/Image/EmbedViews`: a page's player views of a camera per day. */
export interface EmbedViews {
  camera: string;
  page: string;
  days: { day: string; views: number }[];
}

/** The calls of the administration and camera-setup screens (Webcam, News, Referer, Image). */
export function adminApi(api: ApiClient) {
  const call = (path: string, init: RequestInit) => expectTrue(api.boolean(path, init), path);
  return {
    // Cameras
    cameras: () => api.json<Webcam[]>('/api/Webcam/GetCameras'),
    /** Id 0 creates the camera. */
    saveCamera: (webcam: Webcam) => call('/api/Webcam/Set', jsonBody(webcam)),
    removeCamera: (webcam: Webcam) => call('/api/Webcam/Delete', jsonBody(webcam, 'DELETE')),
    /** The camera's latest image, which carries its position; null before the first capture. */
    async latestImage(cameraName: string) {
      const [item] = await api.json<CameraListItem[]>(withQuery('/api/Webcam/GetImages', { name: cameraName }));
      return item?.images.find((image) => image !== null) ?? null;
    },
    setPosition: (position: ImagePosition) => call('/api/Image/SetPosition/set', jsonBody(position)),
    /** A picture taken by hand becomes the camera's current image. */
    uploadImage: (webcamId: number, file: Blob, fileName: string) => {
      const body = new FormData();
      body.append('file', file, fileName);
      return call(withQuery('/api/Image/Upload', { webcamId }), { method: 'POST', body });
    },

    // Camera source (svc-imaging): how pictures arrive; passwords and secrets are shown only when made.
    cameraSource: (webcamId: number) => api.json<CameraSource>(withQuery('/api/Image/Source', { webcamId })),
    saveCameraSource: (webcamId: number, update: CameraSourceUpdate) =>
      api.json<CameraSource>(withQuery('/api/Image/Source', { webcamId }), jsonBody(update, 'PUT')),
    /** The camera's FTP account with a new password; the old one stops working. */
    newFtpPassword: (webcamId: number) =>
      api.json<{ user: string; password: string }>(withQuery('/api/Image/Source/FtpPassword', { webcamId }), {
        method: 'POST',
      }),
    /** A new secret for HTTP uploads; the old one stops working. */
    newPushSecret: (webcamId: number) =>
      api.json<{ path: string; secret: string }>(withQuery('/api/Image/Source/PushSecret', { webcamId }), {
        method: 'POST',
      }),
    testCameraSource: (webcamId: number, test: ConnectionTestRequest) =>
      api.json<ConnectionTestResult>(withQuery('/api/Image/Source/Test', { webcamId }), jsonBody(test)),

    // Permissions
    allUsers: () => api.json<UserSummary[]>('/api/Authenticate/AllUsers'),
    permittedUsers: (webcamId: number) => api.json<UserRef[]>(withQuery('/api/Webcam/GetUsers/users', { webcamId })),
    setPermittedUsers: (webcamId: number, users: readonly UserRef[]) =>
      call(withQuery('/api/Webcam/SetUsers/users', { webcamId }), jsonBody(users)),

    // Quality configurations
    configurations: (webcamId: number) =>
      api.json<CameraConfiguration[]>(withQuery('/api/Webcam/GetConfiguration/configuration', { webcamId })),
    /** `userId` null: the quality for all other users. */
    setConfiguration: (webcamId: number, userId: string | null, quality: Quality) =>
      call(
        withQuery('/api/Webcam/SetConfiguration/configuration', { webcamId, userId: userId ?? undefined, quality }),
        {
          method: 'POST',
        },
      ),
    removeConfiguration: (configurationId: number) =>
      call(withQuery('/api/Webcam/RemoveConfiguration/configuration', { configurationId }), { method: 'DELETE' }),

    // Referer bookings
    bookings: (webcamId: number) =>
      api.json<RefererBooking[]>(withQuery('/api/Webcam/GetReferers/referers', { webcamId })),
    saveBooking: (webcamId: number, booking: RefererBooking) =>
      api.json<RefererBooking>(withQuery('/api/Webcam/SetReferer/referer', { webcamId }), jsonBody(booking, 'PUT')),
    removeBooking: (webcamId: number, refererId: number) =>
      call(withQuery('/api/Webcam/RemoveReferer/referer', { webcamId, refererId }), { method: 'DELETE' }),

    // News
    async news() {
      const response = await api.fetch('/api/News/News/news');
      if (!response.ok) throw await ApiError.from(response, '/api/News/News/news');
      return (await response.text()).trim();
    },
    setNews: (text: string) => call('/api/News/News/news', jsonBody({ text }, 'PUT')),

    // Referer users
    refererUsers: () => api.json<RefererUser[]>('/api/Referer/GetRefererUsers'),
    /** Users that may become referer users: those with an email. */
    usersWithEmail: () => api.json<UserRef[]>('/api/Referer/GetUsers/users'),
    /** Returns the whole list after the change. */
    saveRefererUser: (referer: { id?: number; url: string; userEmail: string }) =>
      api.json<RefererUser[]>('/api/Referer/Set', jsonBody(referer, 'PUT')),
    removeRefererUser: (id: number) => call(withQuery('/api/Referer/Delete', { id }), { method: 'DELETE' }),

    // Feature codes
    /** Every user's redeemed codes with their owners, newest first. */
    codeAssignments: () => api.json<OwnedCodeAssignment[]>('/api/Code/GetAllCodes'),
    createCodes: (feature: string, count: number) =>
      api.json<string[]>(withQuery('/api/Code/CreateCodes', { feature, count }), { method: 'POST' }),
    /** Takes the role away from the owner and deletes the code, so it cannot be redeemed again. */
    removeCode: (assignment: OwnedCodeAssignment) =>
      call(
        withQuery('/api/Code/RemoveCodeAssignementFromSystem', {
          userGuid: assignment.userId,
          codeAssignementGuid: assignment.id,
        }),
        { method: 'DELETE' },
      ),

    // Camera setup
    /** The acting user's urls (an admin's: all). */
    referers: () => api.json<RefererUser[]>('/api/Referer/GetReferers'),
    /** Cameras the acting user may configure, narrowed to those booked for `url` when given. */
    configurableCameras: (url?: string) =>
      api.json<Webcam[]>(withQuery('/api/Referer/GetCameras/Cameras', { url: url || undefined })),
    cameraInfo: (cameraId: number) => api.json<ImageSize>(withQuery('/api/Referer/GetCameraInfo', { cameraId })),
    /** How often the page showed the embedded player of the camera, per day (newest first, 30 days). */
    embedViews: (camera: string, page: string) =>
      api.json<EmbedViews>(withQuery('/api/Image/EmbedViews', { camera, page })),
    layers: (url: string, level: LayerLevel, cameraId: number) =>
      api.json<Layer[]>(withQuery('/api/Referer/GetLayer/layer', { url, level, cameraId })),
    async layerImage(layerId: number, cameraId: number): Promise<Blob> {
      const path = withQuery('/api/Referer/GetLayerImage/layerimage', { layerId, cameraId });
      const response = await api.fetch(path);
      if (!response.ok) throw await ApiError.from(response, path);
      return response.blob();
    },
    /** Returns the id of the saved layer; an empty id means the save failed. */
    async saveLayer(layer: LayerSave): Promise<number> {
      const path = '/api/Referer/SetLayer/layer';
      const body = new FormData();
      body.append('url', layer.url);
      body.append('level', layer.level);
      body.append('id', layer.id === null ? '' : String(layer.id));
      body.append('enabled', String(layer.enabled));
      body.append('cron', layer.cron);
      body.append('cameraId', String(layer.cameraId));
      // Last, so the server has every field when the file streams in.
      if (layer.file) body.append('file', layer.file, layer.file instanceof File ? layer.file.name : 'layer.png');
      const response = await api.fetch(path, { method: 'POST', body });
      if (!response.ok) throw await ApiError.from(response, path);
      const id = (await response.text()).trim().replace(/^"|"$/g, '');
      if (!/^\d+$/.test(id)) throw new ApiError(response.status, path, 'Der Server hat keine Layer-Id zurückgegeben.');
      return Number(id);
    },
    deleteLayer: (layerId: number, cameraId: number) =>
      call(withQuery('/api/Referer/DeleteLayer/layer', { layerId, cameraId }), { method: 'DELETE' }),
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
