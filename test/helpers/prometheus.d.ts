declare module "parse-prometheus-text-format" {
  export type PromMetric = { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string };
  export type PromFamily = { name: string; help: string; type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"; metrics: PromMetric[] };
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
