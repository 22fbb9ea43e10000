/** French messages for accounts, history, replays, profiles and ratings. Keys as in account.en.js; see ../i18n.js. */
export default {
};
