/**
 * The River: its tiles come first; their water, spring, lake and bridges are drawn by
 * ``riverTiles.js`` (``tilePlan``, ``tileArt``, ``tileBarriers``); the match screen needs
 * nothing more of its own (no panel, no phase, no score of its own) but the words of its edge
 * letter ``I`` on the text board. A table's rules offer it as a preset and a checkbox
 * (``rules.river``), which no tile set of an expansion's takes (the River flows through the base
 * game's tiles).
 */

import { t } from '../i18n.js';
import { withHook } from './index.js';
import { tilePlan, tileArt, tileBarriers } from './riverTiles.js';

export default {
  id: 'river',
  edgeWords: { I: 'river' },
  tilePlan,
  tileArt,
  tileBarriers,
  activeIn: (s) => !!(s.rules || {}).river,
  tileGroups: ['river'],
  guideGroups: [{ title: 'guide.theRiver', has: (tile) => !!tile.river }],
  /** Its tiles make no part of the start screen's landscape of base tiles. */
  outOfLandscape: (tile) => !!tile.river,
  guideWords: (tile) => (tile.segs.some((s) => s.kind === 'river') ? t('guide.river') : null),
  presets: ['river'],
  rulesOption: {
    name: 'river',
    label: 'create.river',
    help: 'create.riverHelp',
    checked: (r) => !!r.river,
    disabled: (r) => withHook('tileset').some((x) => x.tileset === r.tileset),
    set: (r, on) => { r.river = on; },
  },
  summaryWords: (r) => (r.river ? t('rules.summary.river') : null),
  tilesLine: (r) => (r.river ? 'rules.line.tilesRiver' : null),
};
