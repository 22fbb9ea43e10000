/**
 * The expansions the match screen knows, by the id the server's view names them with
 * (``model.expansions()``: ``"river"``, ``"wheel_of_fortune"``). The screen asks this registry
 * what to draw for the active ones; it never tests for an expansion itself.
 *
 * An expansion is a plain object; every hook is optional (``m``: the match screen — ``model``,
 * ``ui``, ``dom``, ``board``, ``hooks``; ``s``: the model's ``state()``):
 *
 * - ``id``; ``deltaMerges``: view keys a live delta sends in part (merged, not replaced);
 *   ``activeIn(s)`` → whether a match's state (a view with no ``expansions`` list, from a server
 *   of before that list) has the expansion, asked of every registered one by ``model.expansions()``.
 * - ``phases``: ``{name: {status(m), tray(m, mine) → bool, interaction(m), spots(m) → ids,
 *   pick(m, id) → action | null}}`` for the engine phases the expansion adds.
 * - Board: ``drawBoard(m, s)`` after the tiles; ``focusCells(s)``: cells framed with a placed
 *   tile's follower targets; ``ownsSpot(spot)``, ``spotWhere(spot)``: follower spots off the tile.
 *   ``followerRoles``: ``{spot kind: {role, icon(ink) → SVG markup centred on (0, 0), about 14
 *   across, drawn in ink}}`` for the follower roles it adds (a spot ``KIND:…``; worded
 *   ``role.ROLE``, ``place.KIND``), asked of every registered expansion by ``../board/pieces.js``.
 *   ``tileGroups``: segment kinds of its own that group the remaining tiles in the aids' table
 *   (``../match/aids.js``; worded ``aids.group.KIND``), after the base game's.
 * - The tile guide (``../screens/guide.js``; ``tile``: a catalogue tile type): ``guideGroups``:
 *   ``[{title (catalogue key), has(tile) → bool}]``, its groups of tiles, after the base game's
 *   (the tiles in play no expansion's group has); ``guideWords(tile)`` → words on ``tile`` after
 *   the base game's cities, roads and cloister, else null.
 * - The start screen (``../screens/start.js``): ``outOfLandscape(tile)`` → true for a catalogue
 *   tile type its decorative landscape of base tiles leaves out.
 * - Phases: each phase of ``phases`` is worded ``match.doing.PHASE`` on the panel (``../match/
 *   panel.js``) and keys its own turn chime (``../match/access/attention.js``).
 *   Asked of every registered expansion by ``../board/board.js`` (a replay has no match):
 *   ``boardLayers``: names of SVG layers of its own, over the tiles (``<g class="layer-NAME">``,
 *   ``board.layers[NAME]``); ``spotPoint(board, spot)`` → the world point of an owned spot, or
 *   null; ``drawPosition(board, position, colours, opts)`` draws its layers for a replay's step
 *   (``board.drawExpansions``). What it draws with lives in ``board.own[id]`` (its ``destroy()``
 *   called with the board's).
 * - Panel and tray: ``infoItem(m, s)`` → node; ``trayNote(s)`` → node beside the drawn tile;
 *   ``deployHint``: the catalogue key of the deploy hint when an owned spot is free.
 * - Turn and time: ``onTurn(m, s)`` when a new turn or phase begins; ``onDrawn(m, events)`` for
 *   the live events about to be drawn; ``tick(m)`` twice a second.
 * - Scores: ``scoreFloat(m, events, e)`` → ``{what, delay, anchor, point()}`` for a
 *   ``PointsScored`` of its own; ``claimsScoreLine(line)`` and ``scoreToastDelay(events)`` for
 *   the log's toasts; ``endCategories``, ``categoryLabel(k)``, ``endLead(s)`` for the end screen.
 * - The log (``../words.js``): ``logLines(e, ctx)`` → the log lines (``logLine``s, maybe none) of
 *   engine event ``e`` when it is the expansion's to word, else null; asked before the base game
 *   words an event. ``ctx``: ``{events, i, name, auto}`` — the event's batch and its index in it,
 *   ``name(seat)`` → a display name, ``auto``: the server decided for a person whose time ran out.
 * - The text board (``../match/access/textBoard.js``): ``textBoardLines(s)`` → nodes under the
 *   player's choices; ``edgeWords``: ``{edge letter: tb.edge.* key}`` for the edges of the
 *   expansion's tiles; ``spotWords(spot)`` → a follower spot of its own in words, else null.
 * - Tiles (``../board/tileGeometry.js``, ``tiles.js``, ``tileFields.js``; ``tile``: a prepared
 *   catalogue tile type, ``{id, segs, plan, edgesList, …}``): ``tilePlan(tile)`` once per tile type
 *   when the catalogue loads, after the core planned the cities, roads and cloister: adds the
 *   expansion's own parts to ``tile.plan`` under keys of its own (and may move the core's: a
 *   road's path or a follower's anchor). ``tileArt(tile, k, layer)`` → the SVG nodes of its own
 *   parts of ``tile`` turned ``k`` quarter turns clockwise (none: null), for ``layer``
 *   ``'under'`` (over the roads, under the cities), ``'over'`` (over the cities and roads, under
 *   the buildings and pennants) or ``'top'`` (over everything). ``tileBarriers(ctx, tile,
 *   layer)`` draws in black, on the 2D canvas ``ctx`` in catalogue orientation, the parts that
 *   keep the tile's fields apart: ``layer`` ``'over'`` (after the cities and roads) or ``'top'``
 *   (after the buildings).
 * - A table's rules (``../widgets/table/rules.js``, ``rulesEditor.js``, ``tableFilters.js``;
 *   ``rules``: the rules JSON): ``presets``: the keys of the presets it adds, offered after the
 *   base game's (worded ``rules.title.KEY``, ``rules.text.KEY``, ``preset.KEY``); ``tileset``: the
 *   id of the tile set it brings (``rules.tileset``, worded ``rules.tileset.ID``);
 *   ``rulesOption``: a checkbox of the rules editor, before the base game's — ``{name, label,
 *   help (catalogue keys), checked(rules) → bool, disabled(rules) → bool, set(rules, on)}``
 *   (``set`` writes what it means into the rules JSON); ``summaryWords(rules)`` → words of a
 *   custom rule set's summary, else null; ``tilesLine(rules)`` → the catalogue key of the rules'
 *   tiles line (``{tiles}``), else null.
 *
 * Where there is no match (a replay read from a record, a tile's words, a tile's art)
 * ``wordEvent``, ``firstOfAll``, ``edgeWords`` and ``withHook`` ask every registered expansion,
 * active or not.
 *
 * A new expansion: one module beside this one, added to ``registered``.
 */

import river from './river.js';
import wheelOfFortune from './wheelOfFortune.js';

let registry = null;

/**
 * Every registered expansion by id. Built on first use, not on import: an expansion imports the
 * core's words (``../words.js``), which import this registry, so a module graph entered at an
 * expansion would meet it half-evaluated.
 */
function registered() {
  if (!registry) registry = new Map([river, wheelOfFortune].map((x) => [x.id, x]));
  return registry;
}

/** The registered expansions active in ``model``'s match, in the view's order. */
export function active(model) {
  return model.expansions().map((id) => registered().get(id)).filter(Boolean);
}

/** The non-null results of hook ``name`` of every active expansion, called with ``args``. */
export function collect(model, name, ...args) {
  const out = [];
  for (const x of active(model)) {
    if (typeof x[name] !== 'function') continue;
    const value = x[name](...args);
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** The first non-null result of hook ``name`` among the active expansions (else null). */
export function first(model, name, ...args) {
  return collect(model, name, ...args)[0] ?? null;
}

/** The active expansion's handlers of engine phase ``phase`` (null: a base game phase). */
export function phaseOf(model, phase) {
  for (const x of active(model)) if (x.phases && x.phases[phase]) return x.phases[phase];
  return null;
}

/** The active expansion that owns follower spot ``spot`` (one off the tile), or null. */
export function spotOwner(model, spot) {
  return active(model).find((x) => x.ownsSpot && x.ownsSpot(spot)) || null;
}

/** Every registered expansion's ``deltaMerges`` (a key no active expansion sends never comes). */
export function deltaMerges() {
  return new Set([...registered().values()].flatMap((x) => x.deltaMerges || []));
}

/** The first non-null result of hook ``name`` among every registered expansion, active or not. */
export function firstOfAll(name, ...args) {
  for (const x of registered().values()) {
    if (typeof x[name] !== 'function') continue;
    const value = x[name](...args);
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

/**
 * The log lines an expansion words engine event ``e`` with (``logLines``), or null: the base
 * game words it. ``model``: the match, whose active expansions are asked; null (a replay's log)
 * asks every registered one, which word only their own events.
 */
export function wordEvent(e, ctx, model = null) {
  return model ? first(model, 'logLines', e, ctx) : firstOfAll('logLines', e, ctx);
}

/** Every registered expansion that has hook ``name``, active or not, in registration order. */
export function withHook(name) {
  return [...registered().values()].filter((x) => x[name]);
}

/** Every registered expansion's ``edgeWords``: ``{edge letter: tb.edge.* key}``. */
export function edgeWords() {
  return Object.assign({}, ...[...registered().values()].map((x) => x.edgeWords || {}));
}
