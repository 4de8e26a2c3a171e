/**
 * The picture work of the capture pipeline without its service: deriving the quality levels, encoding the formats,
 * the demo scene, the stores and the time-lapse encoder. Benchmarks measure these pieces through this entry.
 */
export { renderDemoImage } from './capture/demo-source.ts';
export { deriveQualityVariants } from './capture/derive-variants.ts';
export { encodePicture, MODERN_ENCODINGS, type ModernEncoding, variantSuffix } from './store/formats.ts';
export { createImageStore } from './store/image-store.ts';
export { QUALITY_WIDTHS } from './store/quality.ts';
export { encodeTimelapse, FFMPEG_PATH, ffmpegArguments } from './archive/timelapse-encoder.ts';
