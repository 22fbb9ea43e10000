/** English messages for the game log and move sentences (words.js), the end-of-match table (wheel/end table labels). Keys as in log.en.js; see ../i18n.js. */
export default {
};
