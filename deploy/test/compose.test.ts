import { SERVICES } from '@lakecams/contracts';
import { defaultRemoteManifests, GatewayConfigSchema, remoteTargetsFrom } from '@lakecams/gateway';
import { BaseConfigSchema, databaseUrlFor, loadConfig } from '@lakecams/service-kit';
import { loadImagingConfig } from '@lakecams/svc-imaging';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  composeVariables,
  environmentReadBy,
  environmentReadByFrontend,
  FRONTEND_DOCKERFILE,
  FRONTEND_IMAGES,
  FRONTEND_TARGETS,
  healthRoutes,
  type Loose,
  loadCompose,
  parseDockerfile,
  parseEnvFile,
  readJson,
  readText,
  SERVICE_DOCKERFILE,
  SERVICE_TARGETS,
  stageChain,
  stageEnv,
} from './deploy-files.ts';

const { text, doc: compose } = loadCompose();
const services: Record<string, Loose> = compose.services;
const serviceStages = parseDockerfile(SERVICE_DOCKERFILE);
const frontendStages = parseDockerfile(FRONTEND_DOCKERFILE);

/** The environment a container starts with: its image's ENV, then compose's `environment`. */
function containerEnv(name: string): Record<string, string> {
  const service = services[name];
  if (!service.build) return { ...service.environment };
  const stages = service.build.dockerfile === FRONTEND_DOCKERFILE ? frontendStages : serviceStages;
  return { ...Object.fromEntries(stageEnv(stages, service.build.target)), ...service.environment };
}

/** host, port and path of the URL in a healthcheck command. */
function healthcheckUrl(service: Loose): URL {
  const command = [service.healthcheck?.test ?? []].flat().join(' ');
  const url = /https?:\/\/[^'"\s)]+/.exec(command)?.[0];
  if (!url) throw new Error(`no URL in healthcheck ${command}`);
  return new URL(url);
}

describe('compose.yaml', () => {
  it('is valid against the Compose specification schema', () => {
    // The schema names the https spelling of draft-07's meta-schema, which Ajv knows by its http name.
    const { $schema: _, ...schema } = readJson<{ $schema: string }>('node_modules/dclint/schemas/compose.schema.json');
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // The schema is not vacuous: a misspelt key is refused.
    const misspelt = structuredClone(compose);
    misspelt.services.gateway.helthcheck = misspelt.services.gateway.healthcheck;
    expect(validate(misspelt)).toBe(false);
  });

  it('takes every secret from the environment, and .env.example lists every variable it reads', () => {
    const variables = composeVariables(text);
    const example = parseEnvFile(readText('deploy/.env.example'));
    expect([...variables.keys()].filter((name) => !example.has(name))).toEqual([]);
    expect([...example.keys()].filter((name) => !variables.has(name))).toEqual([]);
    for (const secret of [
      'JWT_PRIVATE_KEY',
      'JWT_PUBLIC_KEY',
      'CAPTCHA_HMAC_SECRET',
      'ANTI_FORGERY_SECRET',
      'PICTURE_LINK_SECRET',
      'CAMERA_SECRET_KEY',
      'POSTGRES_PASSWORD',
    ]) {
      expect(variables.get(secret), secret).toBe('required');
      expect(example.get(secret), `${secret} has no value in git`).toBe('');
    }
    expect(() => loadCompose({ JWT_PRIVATE_KEY: '' })).toThrow(/JWT_PRIVATE_KEY/);
  });

  it('builds every service, the gateway and every front end as its own image from a Dockerfile target', () => {
    const built = Object.entries(services).filter(([, service]) => service.build);
    expect(built.map(([name]) => name).sort()).toEqual([...SERVICE_TARGETS, ...FRONTEND_IMAGES].sort());
    for (const [name, service] of built) {
      expect(service.build.context).toBe('..');
      const stages = service.build.dockerfile === SERVICE_DOCKERFILE ? serviceStages : frontendStages;
      expect(stages.map((stage) => stage.name)).toContain(service.build.target);
      expect(service.build.target).toBe(name);
      expect(service.image).toMatch(new RegExp(`^lakecams/${name}:`));
    }
  });

  it('sets only environment variables the code reads', () => {
    for (const name of SERVICE_TARGETS) {
      const read = environmentReadBy(name);
      const unknown = Object.keys(containerEnv(name)).filter((key) => key !== 'NODE_ENV' && !read.has(key));
      expect(unknown, name).toEqual([]);
    }
    const frontendRead = environmentReadByFrontend();
    for (const name of FRONTEND_IMAGES) {
      expect(
        Object.keys(services[name].environment ?? {}).filter((key) => !frontendRead.has(key)),
        name,
      ).toEqual([]);
    }
  });

  it('gives each service a configuration its loader accepts, and its own database on the compose PostgreSQL', () => {
    const initScript = readText('deploy/compose/create-databases.sh');
    for (const service of SERVICES) {
      const env = containerEnv(`svc-${service}`);
      expect(() => loadConfig(BaseConfigSchema, env)).not.toThrow();
      const url = new URL(databaseUrlFor(service, env) ?? '');
      expect(url.host).toBe('postgres:5432');
      expect(url.pathname).toBe(`/lakecams_${service}`);
      expect(url.username).toBe(service);
      // The init script names databases lakecams_<service> and roles <service>, with the password compose sets.
      expect(initScript).toContain('database="lakecams_$service"');
      expect(services.postgres.environment).toHaveProperty(`POSTGRES_PASSWORD_${service.toUpperCase()}`);
      expect(initScript).toContain('for service in identity webcam referer imaging;');
      expect(env.NATS_URL).toBe('nats://nats:4222');
      expect(env.PORT).toBe('8080');
      expect(env.HOST).toBe('0.0.0.0');
    }
    expect(containerEnv('svc-identity').JWT_PRIVATE_KEY).toBeTruthy();
    for (const name of ['svc-webcam', 'svc-referer', 'svc-imaging'])
      expect(containerEnv(name).JWT_PUBLIC_KEY).toBeTruthy();
  });

  it('points the gateway at every service on the port the service listens on', () => {
    const env = containerEnv('gateway');
    const config = loadConfig(GatewayConfigSchema, env);
    expect(config.PORT).toBe(8080);
    const targets = remoteTargetsFrom(env);
    for (const service of SERVICES) {
      const target = targets[service];
      if (target.kind !== 'remote') throw new Error('expected a remote target');
      for (const url of target.urls) {
        const { hostname, port } = new URL(url);
        expect(hostname).toBe(`svc-${service}`);
        expect(port).toBe(containerEnv(`svc-${service}`).PORT);
      }
    }
  });

  it('publishes only the gateway, the FTP ingest and the edge cache, each on its listening port', () => {
    const publishing = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(publishing.map(([name]) => name)).toEqual(['svc-imaging-ftp', 'gateway', 'edge']);
    // Pushing cameras: the control port and the passive range, each forwarded to the same number.
    expect(services['svc-imaging-ftp'].ports.map(String)).toEqual(['2121:2121', '30000-30009:30000-30009']);
    expect(containerEnv('svc-imaging-ftp')).toMatchObject({ FTP_PORT: '2121', FTP_PASSIVE_PORTS: '30000-30009' });
    expect(String(services.gateway.ports[0]).split(':').at(-1)).toBe(containerEnv('gateway').PORT);
    expect(String(services.edge.ports[0]).split(':').at(-1)).toBe(containerEnv('edge').EDGE_PORT);
    // Browsers fetch pictures from the edge, which forwards them to the gateway.
    expect(containerEnv('edge').EDGE_ORIGIN).toBe(`gateway:${containerEnv('gateway').PORT}`);
    expect(containerEnv('svc-imaging').PICTURE_BASE_URL).toBe(
      `http://localhost:${String(services.edge.ports[0]).split(':')[0]}`,
    );
    // The gateway's page policy allows that origin for pictures.
    expect(containerEnv('gateway').PICTURE_BASE_URL).toBe(containerEnv('svc-imaging').PICTURE_BASE_URL);
  });

  it('checks health on paths the services answer, at the port they listen on', () => {
    const routes = healthRoutes();
    for (const name of SERVICE_TARGETS) {
      const url = healthcheckUrl(services[name]);
      expect(routes, name).toContain(url.pathname);
      expect(url.port).toBe(containerEnv(name).PORT);
    }
  });

  it('starts services after what they depend on is healthy', () => {
    // A compose healthcheck, or a HEALTHCHECK in the image the service is built as.
    const healthy = (name: string) => {
      const service = services[name];
      if (service?.healthcheck) return true;
      const stages = service?.build?.dockerfile === FRONTEND_DOCKERFILE ? frontendStages : serviceStages;
      return stageChain(stages, service?.build?.target ?? '').some((stage) =>
        stage.instructions.some((instruction) => instruction.keyword === 'HEALTHCHECK'),
      );
    };
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries<{ condition: string }>(service.depends_on ?? {})) {
        expect(services, `${name} depends on ${dependency}`).toHaveProperty(dependency);
        expect(condition).toBe('service_healthy');
        expect(healthy(dependency), dependency).toBe(true);
      }
    }
    for (const service of SERVICES) {
      expect(Object.keys(services[`svc-${service}`].depends_on)).toEqual(['postgres', 'nats']);
    }
    expect(Object.keys(services.gateway.depends_on)).toEqual(
      expect.arrayContaining([...SERVICES.map((s) => `svc-${s}`), ...FRONTEND_TARGETS]),
    );
  });

  it('runs NATS with JetStream on a volume and PostgreSQL with its data on a volume', () => {
    const command: string[] = services.nats.command;
    expect(command).toContain('-js');
    const storeDir = command[command.indexOf('-sd') + 1];
    expect(services.nats.volumes).toContain(`nats-data:${storeDir}`);
    expect(services.postgres.volumes).toContain('postgres-data:/var/lib/postgresql');
    expect(services.postgres.volumes).toContain(
      './compose/create-databases.sh:/docker-entrypoint-initdb.d/10-create-databases.sh:ro',
    );
  });

  it('runs svc-imaging replicated on one image store every replica reaches: the NATS object store', () => {
    const imaging = services['svc-imaging'];
    expect(Number(imaging.deploy.replicas)).toBeGreaterThanOrEqual(2);
    expect(containerEnv('svc-imaging').IMAGE_STORE).toBe('nats');
    expect(containerEnv('svc-imaging').NATS_URL).toBeTruthy();
    expect(imaging.volumes).toBeUndefined();
    // Replicas must not share a REPLICA_ID; the default (host name and pid) differs per container.
    expect(imaging.environment).not.toHaveProperty('REPLICA_ID');
  });

  it('passes the archive tiers and the clip interval to svc-imaging, defaulting as the code does', () => {
    const defaults = loadImagingConfig({});
    const tierSettings = ['RETENTION_DAYS', 'ARCHIVE_DAYS', 'TIMELAPSE_TODAY_MINUTES'] as const;
    const config = loadImagingConfig(containerEnv('svc-imaging'));
    for (const name of tierSettings) {
      expect(config[name], name).toBe(defaults[name]);
      // Set from deploy/.env, and unset it falls back to the same value.
      expect(composeVariables(text).get(name), name).toBe('default');
      const unset = loadCompose({ [name]: '' }).doc.services['svc-imaging'].environment[name];
      expect(Number(unset), name).toBe(defaults[name]);
    }
    const chosen = loadCompose({ RETENTION_DAYS: '30', ARCHIVE_DAYS: '730', TIMELAPSE_TODAY_MINUTES: '5' });
    expect(loadImagingConfig(chosen.doc.services['svc-imaging'].environment)).toMatchObject({
      RETENTION_DAYS: 30,
      ARCHIVE_DAYS: 730,
      TIMELAPSE_TODAY_MINUTES: 5,
    });
  });

  it('lets the gateway serve each front end from the volume its image publishes the build into', () => {
    const frontendRoot = containerEnv('gateway').FRONTEND_ROOT;
    const remoteFolders = Object.values(defaultRemoteManifests()).map((url) => url.split('/').at(-2));
    expect(remoteFolders.sort()).toEqual(FRONTEND_TARGETS.filter((name) => name !== 'shell').sort());
    for (const name of FRONTEND_IMAGES) {
      const publishDir = containerEnv(name).PUBLISH_DIR;
      const volume = (services[name].volumes as string[]).find((mount) => mount.endsWith(`:${publishDir}`));
      expect(volume, name).toBeDefined();
      const volumeName = volume?.split(':')[0];
      expect(services.gateway.volumes).toContain(`${volumeName}:${frontendRoot}/${name}/dist:ro`);
    }
  });
});
