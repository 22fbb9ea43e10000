/**
 * A table's title as its reader sees it. The server sends a table's (lobby's or match's)
 * ``name`` — the one its host gave — and ``host_name``; a host who gave no name gets none
 * stored (``name`` null), and every reader sees the default worded in their own language:
 * "Ann’s table", "Tisch von Ann", "Table de Ann" (docs/API.md § Lobbies). Tables named before
 * this keep the English default the server then stored ("Ann's table"), shown as it is.
 *
 *   tableName({ name: null, host_name: 'Ann' })          → "Ann’s table" / "Tisch von Ann"
 *   tableName({ name: 'Friday game', host_name: 'Ann' }) → "Friday game"
 *   tableName({ name: null }, t('match.title'))          → the fallback (no host known)
 */

import { t } from './i18n.js';

export function tableName(table, fallback = t('room.table')) {
  if (table && table.name) return table.name;
  if (table && table.host_name) return t('table.default', { host: table.host_name });
  return fallback;
}
