/**
 * The PostgreSQL driver the ORM runs on, with one change: how it escapes a string. MikroORM
 * writes every value into the SQL text (it never binds), and its escape builds the literal a
 * character at a time — a 120 KB JSON value (proof of play's batch for a switch on 1,000 walls)
 * cost 1.4–3 ms and about 4 MB of short-lived strings per write, a third of a node's garbage
 * while it pushes. The same literal, made with one replace per special character.
 */
import { PostgreSqlDriver, PostgreSqlPlatform, type Configuration } from '@mikro-orm/postgresql';

/**
 * A string as a PostgreSQL literal, exactly as libpq's PQescapeLiteral (and MikroORM's and pg's
 * ports of it) writes it: quotes and backslashes doubled, and ` E` before it when it has a backslash.
 */
export function escapeLiteral(text: string): string {
  const quoted = `'${text.replaceAll("'", "''").replaceAll('\\', '\\\\')}'`;
  return text.includes('\\') ? ` E${quoted}` : quoted;
}

export class NatureWallPlatform extends PostgreSqlPlatform {
  override escape(value: unknown): string {
    return typeof value === 'string' ? escapeLiteral(value) : super.escape(value);
  }
}

export class NatureWallDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // Set before the configuration reads it and hands it to the connections (DatabaseDriver.setMetadata).
    (this as unknown as { platform: PostgreSqlPlatform }).platform = new NatureWallPlatform();
  }
}
