/** German messages for time controls, clocks, leaving, votes and proposals (match/clock.js, screens/timecontrol.js). Keys as in clock.en.js; see ../i18n.js. */
export default {
};
