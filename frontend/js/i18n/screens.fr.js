/** French messages for the create, room, rules and guide screens. Keys as in screens.en.js; see ../i18n.js. */
export default {
};
