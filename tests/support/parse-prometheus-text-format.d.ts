/** The Prometheus text-format parser the metrics test uses (the package ships no types). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
