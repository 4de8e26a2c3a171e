import { useEffect, useState } from 'react';
import { useAdminApi } from '../api/use-admin-api.ts';

/** A layer's image; fetched with the session's token, which an `<img src>` could not send. */
export function LayerImage({
  layerId,
  cameraId,
  version,
  alt,
}: {
  layerId: number;
  cameraId: number;
  /** Changes when the layer's image may have changed. */
  version: number;
  alt: string;
}) {
  const api = useAdminApi();
  const [source, setSource] = useState<string | 'failed' | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` asks for the image again.
  useEffect(() => {
    let objectUrl: string | null = null;
    let current = true;
    api.layerImage(layerId, cameraId).then(
      (blob) => {
        if (!current) return;
        objectUrl = URL.createObjectURL(blob);
        setSource(objectUrl);
      },
      (error: unknown) => {
        console.error('Loading a layer image failed', error);
        if (current) setSource('failed');
      },
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [api, layerId, cameraId, version]);

  if (source === 'failed') return <span className="layer-image layer-image--missing">Kein Bild</span>;
  if (!source) return <span className="layer-image layer-image--missing">…</span>;
  return <img className="layer-image" src={source} alt={alt} />;
}
