/**
 * The River: its tiles come first; their water, spring, lake and bridges are drawn by
 * ``riverTiles.js`` (``tilePlan``, ``tileArt``, ``tileBarriers``); the match screen needs
 * nothing more of its own (no panel, no phase, no score of its own) but the words of its edge
 * letter ``I`` on the text board.
 */

import { tilePlan, tileArt, tileBarriers } from './riverTiles.js';

export default { id: 'river', edgeWords: { I: 'river' }, tilePlan, tileArt, tileBarriers };
