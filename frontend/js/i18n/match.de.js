/** German messages for the match screen (screens/match.js, match/*.js except clock.js). Keys as in match.en.js; see ../i18n.js. */
export default {
};
