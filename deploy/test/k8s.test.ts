import { SERVICES } from '@lakecams/contracts';
import { defaultRemoteManifests, GatewayConfigSchema, remoteTargetsFrom } from '@lakecams/gateway';
import { BaseConfigSchema, databaseUrlFor, loadConfig } from '@lakecams/service-kit';
import { loadImagingConfig } from '@lakecams/svc-imaging';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  environmentReadBy,
  exists,
  FRONTEND_DOCKERFILE,
  FRONTEND_IMAGES,
  gatewayRoutes,
  healthRoutes,
  type Loose,
  loadManifests,
  metricsRoutes,
  parseDockerfile,
  parseEnvFile,
  readText,
  SERVICE_DOCKERFILE,
  SERVICE_TARGETS,
  stageEnv,
} from './deploy-files.ts';

const BASE = 'deploy/k8s/base';
const OVERLAY = 'deploy/k8s/overlays/example';
const kustomization: Loose = parse(readText(`${BASE}/kustomization.yaml`));
const resources: Loose[] = (kustomization.resources as string[]).flatMap((file) => loadManifests(`${BASE}/${file}`));
const serviceStages = parseDockerfile(SERVICE_DOCKERFILE);
const frontendStages = parseDockerfile(FRONTEND_DOCKERFILE);

// Models generated from the Kubernetes OpenAPI document; validate() runs their Ajv-compiled schema.
const MODELS: Record<string, new (data: Loose) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Service': Service,
};

function find(kind: string, name: string): Loose {
  const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

const workloads = resources.filter((r) => r.kind === 'Deployment' || r.kind === 'StatefulSet');
const generatedConfigMaps = new Map<string, Map<string, string>>(
  (kustomization.configMapGenerator as Loose[]).map((generator) => [
    generator.name,
    new Map([
      ...(generator.literals ?? []).map((literal: string) => literal.split(/=(.*)/s).slice(0, 2)),
      ...(generator.files ?? []).map((file: string) => [file.split('/').at(-1), readText(`${BASE}/${file}`)]),
    ] as [string, string][]),
  ]),
);
// The Secret is made from git-ignored files; the example file and the key files' names stand for them.
const secretGenerator: Loose = (kustomization.secretGenerator as Loose[])[0];
const secretKeys = new Set<string>([
  ...parseEnvFile(readText(`${BASE}/secrets.env.example`)).keys(),
  ...(secretGenerator.files as string[]),
]);

/** Environment of a container: image ENV, envFrom ConfigMaps, env entries (secret values as placeholders). */
function containerEnv(container: Loose): Record<string, string> {
  const target = imageTarget(container.image);
  const stages = (FRONTEND_IMAGES as readonly string[]).includes(target) ? frontendStages : serviceStages;
  const env: Record<string, string> = Object.fromEntries(stageEnv(stages, target));
  for (const source of container.envFrom ?? []) {
    Object.assign(env, Object.fromEntries(generatedConfigMaps.get(source.configMapRef.name) ?? []));
  }
  for (const entry of container.env ?? []) {
    const secret = entry.valueFrom?.secretKeyRef;
    env[entry.name] = entry.value ?? (secret ? `secret:${secret.key}` : 'from-field');
  }
  return env;
}

function imageTarget(image: string): string {
  return /^lakecams\/([^:]+)/.exec(image)?.[1] ?? '';
}

function appContainer(name: string): Loose {
  return find('Deployment', name).spec.template.spec.containers[0];
}

describe('Kubernetes base', () => {
  it('lists resource and generator files that exist, and keeps secrets out of git', () => {
    for (const file of kustomization.resources as string[]) expect(exists(`${BASE}/${file}`), file).toBe(true);
    for (const generator of kustomization.configMapGenerator as Loose[]) {
      for (const file of generator.files ?? []) expect(exists(`${BASE}/${file}`), file).toBe(true);
    }
    expect(secretGenerator.envs).toEqual(['secrets.env']);
    const ignored = readText('deploy/.gitignore');
    expect(ignored).toMatch(/^k8s\/\*\*\/secrets\.env$/m);
    expect(ignored).toMatch(/^k8s\/\*\*\/\*\.pem$/m);
    for (const [key, value] of parseEnvFile(readText(`${BASE}/secrets.env.example`))) {
      expect(value === '' || value.includes('CHANGE-ME'), `${key} must not hold a real secret`).toBe(true);
    }
  });

  it('is valid against the Kubernetes API schemas', () => {
    expect(resources.length).toBeGreaterThan(20);
    for (const resource of resources) {
      const Model = MODELS[`${resource.apiVersion}/${resource.kind}`];
      expect(Model, `${resource.apiVersion} ${resource.kind}`).toBeDefined();
      expect(() => new (Model as NonNullable<typeof Model>)(resource).validate(), resource.metadata.name).not.toThrow();
    }
    // The validator is not vacuous: a port given as text is refused.
    const broken = structuredClone(find('Deployment', 'gateway'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it('has a Deployment and a Service for every service, the gateway and every front end', () => {
    for (const name of [...SERVICE_TARGETS, ...FRONTEND_IMAGES]) {
      const container = appContainer(name);
      expect(imageTarget(container.image)).toBe(name);
      expect(find('Service', name).spec.ports[0].targetPort).toBe('http');
    }
  });

  it('selects pods by labels they carry and targets ports they declare', () => {
    for (const service of resources.filter((r) => r.kind === 'Service')) {
      const matching = workloads.filter((w) =>
        Object.entries(service.spec.selector).every(([key, value]) => w.spec.template.metadata.labels[key] === value),
      );
      expect(matching.length, service.metadata.name).toBe(1);
      const ports = (matching[0].spec.template.spec.containers as Loose[]).flatMap((c) => c.ports);
      for (const { targetPort } of service.spec.ports) {
        expect(
          ports.map((p: Loose) => p.name),
          `${service.metadata.name} → ${targetPort}`,
        ).toContain(targetPort);
      }
    }
    for (const workload of workloads) {
      expect(workload.spec.template.metadata.labels).toMatchObject(workload.spec.selector.matchLabels);
    }
  });

  it('listens where the image listens and probes paths the code answers', () => {
    for (const name of [...SERVICE_TARGETS, ...FRONTEND_IMAGES]) {
      const container = appContainer(name);
      const env = containerEnv(container);
      const isFrontend = (FRONTEND_IMAGES as readonly string[]).includes(name);
      expect(String(container.ports[0].containerPort)).toBe(isFrontend ? '8080' : env.PORT);
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const check = container[probe]?.httpGet;
        if (!check) continue;
        expect(check.port).toBe('http');
        if (isFrontend) expect(check.path, `${name} ${probe}`).toBe(env.APP_ENTRY);
        else expect(healthRoutes(), `${name} ${probe}`).toContain(check.path);
      }
    }
    // Services are ready with their dependencies; the gateway's /ready needs every service, so it uses /health.
    for (const service of SERVICES) expect(appContainer(`svc-${service}`).readinessProbe.httpGet.path).toBe('/ready');
    expect(appContainer('gateway').readinessProbe.httpGet.path).toBe('/health');
  });

  it('asks Prometheus to scrape the services and the gateway where their metrics are, and no other pod', () => {
    for (const workload of workloads) {
      const name = workload.metadata.name as string;
      const annotations = workload.spec.template.metadata.annotations ?? {};
      const scraped = (SERVICE_TARGETS as readonly string[]).includes(name);
      expect(annotations['prometheus.io/scrape'], name).toBe(scraped ? 'true' : 'false');
      if (!scraped) continue;
      // The metrics port the image listens on (METRICS_PORT), apart from the one its Service and probes use.
      const container = appContainer(name);
      const metrics = (container.ports as Loose[]).find((port) => port.name === 'metrics');
      expect(String(metrics?.containerPort), name).toBe(containerEnv(container).METRICS_PORT);
      expect(containerEnv(container).METRICS_HOST, name).toBe('0.0.0.0');
      expect(annotations['prometheus.io/port'], name).toBe(String(metrics?.containerPort));
      expect(metricsRoutes(), name).toContain(annotations['prometheus.io/path']);
      const service = find('Service', name);
      expect(
        (service.spec.ports as Loose[]).map((port) => port.targetPort),
        `${name}: no Service exposes metrics`,
      ).not.toContain('metrics');
      expect((service.spec.ports as Loose[]).map((port) => String(port.port))).not.toContain(
        String(metrics?.containerPort),
      );
    }
  });

  it('gives each container only environment variables the code reads, from ConfigMaps and the Secret that exist', () => {
    for (const name of SERVICE_TARGETS) {
      const container = appContainer(name);
      for (const source of container.envFrom ?? []) {
        expect(generatedConfigMaps.has(source.configMapRef.name), source.configMapRef.name).toBe(true);
      }
      for (const entry of container.env ?? []) {
        const secret = entry.valueFrom?.secretKeyRef;
        if (!secret) continue;
        expect(secret.name).toBe(secretGenerator.name);
        expect(secretKeys, `${name}: ${entry.name}`).toContain(secret.key);
      }
      const read = environmentReadBy(name);
      const unknown = Object.keys(containerEnv(container)).filter((key) => key !== 'NODE_ENV' && !read.has(key));
      expect(unknown, name).toEqual([]);
    }
    // Every ConfigMap key is used by some container.
    const used = new Set(
      workloads.flatMap((w) =>
        (w.spec.template.spec.containers as Loose[]).flatMap((c) =>
          (c.envFrom ?? []).flatMap((s: Loose) => [...(generatedConfigMaps.get(s.configMapRef.name)?.keys() ?? [])]),
        ),
      ),
    );
    for (const [name, values] of generatedConfigMaps) {
      if (name === 'nats-config' || name === 'edge-config') continue;
      for (const key of values.keys()) expect(used, `${name}.${key}`).toContain(key);
    }
  });

  it('configures each service so its loader accepts it, with its own database and the bus', () => {
    for (const service of SERVICES) {
      const env = containerEnv(appContainer(`svc-${service}`));
      expect(() => loadConfig(BaseConfigSchema, env)).not.toThrow();
      expect(databaseUrlFor(service, env)).toBe(`secret:DATABASE_URL_${service.toUpperCase()}`);
      expect(env.JWT_PUBLIC_KEY).toBe('secret:jwt-public-key.pem');
      const nats = new URL(env.NATS_URL ?? '');
      const natsService = find('Service', nats.hostname);
      expect(natsService.spec.ports.map((p: Loose) => String(p.port))).toContain(nats.port);
    }
    const identity = containerEnv(appContainer('svc-identity'));
    expect(identity.JWT_PRIVATE_KEY).toBe('secret:jwt-private-key.pem');
    expect(identity.CAPTCHA_HMAC_SECRET).toBe('secret:CAPTCHA_HMAC_SECRET');
  });

  it('points the gateway at the Services of every service', () => {
    const env = containerEnv(appContainer('gateway'));
    expect(() => loadConfig(GatewayConfigSchema, env)).not.toThrow();
    // Replicas sign and check each other's anti-forgery tokens: one shared secret.
    expect(env.ANTI_FORGERY_SECRET).toBe('secret:ANTI_FORGERY_SECRET');
    const targets = remoteTargetsFrom(env);
    for (const service of SERVICES) {
      const target = targets[service];
      if (target.kind !== 'remote') throw new Error('expected a remote target');
      const url = new URL(target.urls[0] ?? '');
      expect(url.hostname).toBe(`svc-${service}`);
      expect(find('Service', url.hostname).spec.ports.map((p: Loose) => String(p.port))).toContain(url.port);
    }
  });

  it('scales svc-imaging with an HPA on CPU, its pictures in the NATS object store', () => {
    const hpa = find('HorizontalPodAutoscaler', 'svc-imaging');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'svc-imaging' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    const deployment = find('Deployment', 'svc-imaging');
    // The HPA owns the replica count; a fixed one would be reset on every apply.
    expect(deployment.spec.replicas).toBeUndefined();
    const container = appContainer('svc-imaging');
    expect(container.resources.requests.cpu).toBeDefined();
    expect(containerEnv(container).IMAGE_STORE).toBe('nats');
    expect(Number(containerEnv(container).NATS_STREAM_REPLICAS)).toBe(3);
    expect(deployment.spec.template.spec.securityContext.fsGroup).toBe(1000);
  });

  it('gives svc-imaging the archive tiers and the clip interval, as the code defaults them', () => {
    const defaults = loadImagingConfig({});
    const env = containerEnv(appContainer('svc-imaging'));
    const config = loadImagingConfig(env);
    for (const name of ['RETENTION_DAYS', 'ARCHIVE_DAYS', 'TIMELAPSE_TODAY_MINUTES'] as const) {
      expect(env[name], name).toBeDefined();
      expect(config[name], name).toBe(defaults[name]);
    }
  });

  it('runs NATS as a JetStream cluster of three whose routes name its own pods', () => {
    const nats = find('StatefulSet', 'nats');
    expect(nats.spec.replicas).toBe(3);
    const headless = find('Service', nats.spec.serviceName);
    expect(headless.spec.clusterIP).toBe('None');
    const config = generatedConfigMaps.get('nats-config')?.get('nats.conf') ?? '';
    expect(config).toMatch(/jetstream \{[^}]*store_dir: \/data/);
    const routes = [...config.matchAll(/nats:\/\/([\w.-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    const clusterPort = headless.spec.ports.find((p: Loose) => p.name === 'cluster').port;
    expect(routes).toEqual([0, 1, 2].map((i) => `nats-${i}.${headless.metadata.name}:${clusterPort}`));
    const container = nats.spec.template.spec.containers[0];
    expect(container.args).toEqual(['--config', '/etc/nats/nats.conf']);
    const dataMount = (container.volumeMounts as Loose[]).find((m) => m.mountPath === '/data');
    expect(nats.spec.volumeClaimTemplates.map((t: Loose) => t.metadata.name)).toContain(dataMount?.name);
    const configVolume = (nats.spec.template.spec.volumes as Loose[]).find((v) => v.name === 'config');
    expect(configVolume.configMap.name).toBe('nats-config');
    expect(config).toContain('pid_file: /tmp/nats.pid');
    expect(JSON.stringify(container.lifecycle)).toContain('/tmp/nats.pid');
  });

  it('routes the browser: API and settings to the gateway, remotes to their images, pages to the shell', () => {
    const rules = find('Ingress', 'lakecams').spec.rules[0].http.paths as Loose[];
    const backendOf = (path: string) => rules.find((r) => r.path === path)?.backend.service;
    for (const rule of rules) {
      const service = find('Service', rule.backend.service.name);
      expect(service.spec.ports.map((p: Loose) => p.name)).toContain(rule.backend.service.port.name);
    }
    expect(backendOf('/api')?.name).toBe('gateway');
    for (const route of gatewayRoutes()) expect(backendOf(route)?.name, route).toBe('gateway');
    for (const url of Object.values(defaultRemoteManifests())) {
      const folder = url.split('/').at(-2) as string;
      expect(backendOf(url.replace(/\/[^/]+$/, ''))?.name).toBe(folder);
    }
    expect(backendOf('/embed')?.name).toBe('embed');
    expect(backendOf('/')?.name).toBe('shell');
  });
});

describe('Kubernetes example overlay', () => {
  const overlay: Loose = parse(readText(`${OVERLAY}/kustomization.yaml`));

  it('builds on the base and names only images, ConfigMaps and resources the base has', () => {
    for (const resource of overlay.resources as string[]) expect(exists(`${OVERLAY}/${resource}`), resource).toBe(true);
    const images = new Set(
      workloads.flatMap((w) => w.spec.template.spec.containers.map((c: Loose) => c.image.split(':')[0])),
    );
    for (const image of overlay.images as Loose[]) expect(images).toContain(image.name);
    for (const generator of overlay.configMapGenerator as Loose[]) {
      const base = generatedConfigMaps.get(generator.name);
      expect(base, generator.name).toBeDefined();
      for (const literal of generator.literals) expect(base?.has(literal.split('=')[0]), literal).toBe(true);
    }
    for (const patch of overlay.patches as Loose[]) {
      const target = patch.target ?? parse(readText(`${OVERLAY}/${patch.path}`));
      expect(() => find(target.kind, target.name ?? target.metadata.name)).not.toThrow();
    }
    for (const file of ['namespace.yaml']) {
      for (const resource of loadManifests(`${OVERLAY}/${file}`)) {
        const Model = MODELS[`${resource.apiVersion}/${resource.kind}`] as NonNullable<(typeof MODELS)[string]>;
        expect(() => new Model(resource).validate(), file).not.toThrow();
      }
    }
  });
});
