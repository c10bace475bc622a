/** /test-db: the database connection test and the idempotent initialisation. */

export interface DatabaseTestDto {
  status: 'success';
  latency_ms: number;
  server_version: string;
  database: string;
  migrations_applied: number;
}

export interface InitializeDto {
  /** What was missing and is there now; both false when everything already existed. */
  created_default_scene: boolean;
  set_default_scene_id: boolean;
  default_scene_id: number;
}
