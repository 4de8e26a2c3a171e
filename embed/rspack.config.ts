import { BuildInputsPlugin } from '@lakecams/mf-config/build-inputs';
import { PrecompressPlugin } from '@lakecams/mf-config';
import type { Compiler, Configuration, RspackPluginInstance } from '@rspack/core';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The stable entry partners paste, `v1.js`: one line importing the content-hashed player of this build, so a
 * release reaches every page within `v1.js`'s five minutes while the player itself is cached for good
 * (docs/decisions.md, "The embedded player's two forms").
 */
class StableEntryPlugin implements RspackPluginInstance {
  apply(compiler: Compiler) {
    compiler.hooks.afterEmit.tap('StableEntryPlugin', (compilation) => {
      const player = [...(compilation.entrypoints.get('player')?.getFiles() ?? [])].find((file) =>
        file.endsWith('.js'),
      );
      if (!player) throw new Error('the player was not built');
      const out = compilation.outputOptions.path as string;
      writeFileSync(path.join(out, 'v1.js'), `import"./${player}";\n`);
    });
  }
}

const root = import.meta.dirname;

const config: Configuration = {
  name: 'embed',
  mode: 'production',
  context: root,
  entry: { player: './src/player.ts' },
  target: ['web', 'es2022'],
  output: {
    path: path.join(root, 'dist'),
    clean: true,
    module: true,
    filename: '[name].[contenthash:8].js',
    // No chunks, no runtime loading: one file the stable entry imports.
    chunkFormat: 'module',
  },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    parser: {
      // `new URL('../', import.meta.url)` is the portal the file came from, at run time.
      javascript: { importMeta: false, url: false },
    },
    rules: [
      {
        test: /\.ts$/,
        loader: 'builtin:swc-loader',
        options: { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } },
        type: 'javascript/auto',
      },
    ],
  },
  optimization: { splitChunks: false, runtimeChunk: false },
  plugins: [new StableEntryPlugin(), new PrecompressPlugin(), new BuildInputsPlugin(path.dirname(root), 'embed')],
  devtool: 'source-map',
  performance: { hints: false },
};

export default config;
