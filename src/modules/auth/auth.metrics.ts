/** Sign-in metrics (registered by the app from the module's declaration). */
import client from 'prom-client';

export const loginFailures = new client.Counter({
  name: 'nw_login_failures_total',
  help: 'Failed sign-ins on this node (a wrong password, or a request that was not a sign-in)',
  registers: [],
});

export const loginRefusals = new client.Counter({
  name: 'nw_login_refused_total',
  help: 'Sign-ins refused before their password was checked, by limit (address, address_username, username_slowed, device)',
  labelNames: ['limit'] as const,
  registers: [],
});

export const loginUsernamesUnderAttack = new client.Counter({
  name: 'nw_login_usernames_failing_total',
  help: 'Times a username crossed the failures-from-every-address threshold (it is slowed for browsers that never signed in to it)',
  registers: [],
});
