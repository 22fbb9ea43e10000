/**
 * The River: its tiles come first and are drawn by ``tiles.js`` like any other; the match screen
 * needs nothing more of its own (no panel, no phase, no score of its own) but the words of its
 * edge letter ``I`` on the text board.
 */

export default { id: 'river', edgeWords: { I: 'river' } };
