import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  exists,
  type Loose,
  loadCompose,
  loadManifests,
  metricsRoutes,
  parseDockerfile,
  readText,
  SERVICE_DOCKERFILE,
  SERVICE_TARGETS,
  stageEnv,
} from './deploy-files.ts';

// The dashboard and the rules are held against a running portal's metrics in scripts/test/monitoring.int.test.ts.
const MONITORING = 'deploy/monitoring';
const kubernetes: Loose = parse(readText(`${MONITORING}/prometheus-kubernetes.yaml`));
const compose: Loose = parse(readText(`${MONITORING}/prometheus-compose.yaml`));
const rules = readText(`${MONITORING}/alerts.yaml`);
const dashboard = readText(`${MONITORING}/grafana-dashboard.json`);

/** A relabel regex as Prometheus applies it: anchored at both ends. */
const matches = (regex: string, value: string) => new RegExp(`^(?:${regex})$`).test(value);

describe('Prometheus configurations in deploy/monitoring', () => {
  it('load the alert rules and name the one job the rules and the dashboard expect', () => {
    for (const config of [kubernetes, compose]) {
      for (const file of config.rule_files) expect(exists(`${MONITORING}/${file}`), file).toBe(true);
      expect(config.scrape_configs).toHaveLength(1);
      const job = config.scrape_configs[0].job_name;
      const jobsNamed = (text: string) => new Set([...text.matchAll(/job=\\?"([^"\\]+)\\?"/g)].map((m) => m[1]));
      expect(jobsNamed(rules)).toEqual(new Set([job]));
      expect(jobsNamed(dashboard)).toEqual(new Set([job]));
    }
  });

  it('on Kubernetes, keeps exactly the pods of the services and the gateway that ask to be scraped', () => {
    const relabel = kubernetes.scrape_configs[0].relabel_configs as Loose[];
    const keeps = relabel.filter((r) => r.action === 'keep');
    const bySource = (label: string) => keeps.find((r) => r.source_labels.includes(label));
    expect(bySource('__meta_kubernetes_pod_annotation_prometheus_io_scrape')?.regex).toBe('true');
    const names = bySource('__meta_kubernetes_pod_label_app_kubernetes_io_name')?.regex as string;
    const kustomization: Loose = parse(readText('deploy/k8s/base/kustomization.yaml'));
    const workloads = (kustomization.resources as string[])
      .flatMap((file) => loadManifests(`deploy/k8s/base/${file}`))
      .filter((r) => r.kind === 'Deployment' || r.kind === 'StatefulSet');
    const kept = workloads
      .map((w) => w.spec.template.metadata.labels['app.kubernetes.io/name'] as string)
      .filter((name) => matches(names, name));
    expect(kept.sort()).toEqual([...SERVICE_TARGETS].sort());
    // Address and path come from the pods' own annotations.
    const target = (label: string) => relabel.find((r) => r.target_label === label);
    expect(target('__address__')?.source_labels).toContain('__meta_kubernetes_pod_annotation_prometheus_io_port');
    expect(target('__metrics_path__')?.source_labels).toEqual(['__meta_kubernetes_pod_annotation_prometheus_io_path']);
    expect(target('app')?.source_labels).toEqual(['__meta_kubernetes_pod_label_app_kubernetes_io_name']);
  });

  it('in compose, scrapes every replica of the services and the gateway at their metrics port and path', () => {
    const job = compose.scrape_configs[0];
    const services: Record<string, Loose> = loadCompose().doc.services;
    const stages = parseDockerfile(SERVICE_DOCKERFILE);
    const [discovery] = job.dns_sd_configs as Loose[];
    expect([...discovery.names].sort()).toEqual([...SERVICE_TARGETS].sort());
    for (const name of discovery.names as string[]) {
      const env = { ...Object.fromEntries(stageEnv(stages, name)), ...services[name]?.environment };
      expect(String(discovery.port), name).toBe(String(env.METRICS_PORT));
      expect(String(discovery.port), name).not.toBe(String(env.PORT));
      // Published nowhere: only Prometheus in the compose network reads it.
      const published = (services[name]?.ports ?? []).map((port: unknown) => String(port));
      expect(published.some((port: string) => port.includes(String(env.METRICS_PORT))), name).toBe(false);
    }
    expect(metricsRoutes()).toContain(job.metrics_path);
    expect(job.relabel_configs).toContainEqual({ source_labels: ['__meta_dns_name'], target_label: 'app' });
  });
});
