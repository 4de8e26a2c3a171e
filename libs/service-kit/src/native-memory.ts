/**
 * glibc malloc settings for every portal process (docs/decisions.md, "Native memory"). sharp's libvips threads
 * each get a malloc arena of their own, and freed picture buffers stay in them: an embedded portal held about
 * 980 MiB after its first captures with a 50 MiB JavaScript heap. Two arenas, and buffers of 128 KiB and more
 * mapped and given back on free, keep it near 250 MiB for about 15 % more CPU per capture.
 *
 * glibc reads these once, when the process starts: they belong in the environment that starts it
 * (`npm start`, the launcher of `npm run start:distributed`, the Dockerfile). musl and macOS ignore them.
 */
export const NATIVE_MEMORY_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
} as const;
