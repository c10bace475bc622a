/**
 * `npm run admin -- <command>`: manage administrators from the shell (the way back in when a
 * password is lost). Uses DATABASE_URL, or the embedded database in DATA_DIR — stop the server
 * first in that case, it holds the embedded database.
 *
 *   create <name>   new admin; prints a generated password (or reads one from stdin)
 *   passwd <name>   new password; prints it (or reads one from stdin); ends the admin's sessions
 *   delete <name>
 *   list
 */
import { loadConfig } from '../src/config.ts';
import { initORM, migrate } from '../src/orm.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';
import { AdminUser } from '../src/modules/auth/auth.entity.ts';
import { createAdmin, deleteAdmin, setAdminPassword } from '../src/modules/auth/admins.service.ts';
import { generatePassword } from '../src/modules/auth/passwords.ts';

const [command, name] = process.argv.slice(2);
const usage = 'usage: npm run admin -- create|passwd|delete <name> | list   (a password may be piped on stdin)';
if (!command || (command !== 'list' && !name)) {
  console.error(usage);
  process.exit(2);
}

async function passwordFromStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.trim() || null;
}

const config = loadConfig();
const logger = createLogger('warn');
const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
const orm = await initORM({ url: config.databaseUrl ?? embedded!.url, logger });
let exitCode = 0;
try {
  await migrate(orm);
  const em = orm.em.fork();
  if (command === 'list') {
    for (const admin of await em.find(AdminUser, {}, { orderBy: { username: 'asc' } })) {
      console.log(`${admin.username}\t${admin.role}${admin.disabledAt ? ' (disabled)' : admin.passwordHash === null ? ' (invited)' : ''}\tcreated ${admin.createdAt.toISOString()}\tlast login ${admin.lastLoginAt?.toISOString() ?? 'never'}`);
    }
  } else if (command === 'create' || command === 'passwd') {
    const given = await passwordFromStdin();
    const password = given ?? generatePassword();
    if (command === 'create') await createAdmin(em, name!, password);
    else await setAdminPassword(em, name!, password);
    console.log(given ? `Done: ${name}.` : `Done: ${name} — password: ${password}`);
  } else if (command === 'delete') {
    await deleteAdmin(em, name!);
    console.log(`Deleted ${name}.`);
  } else {
    console.error(usage);
    exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await orm.close();
  await embedded?.stop();
}
process.exit(exitCode);
