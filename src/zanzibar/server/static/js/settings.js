// Player preferences kept in the browser (localStorage): speech mode, sound
// cues and volume, which history channels are announced.

const DEFAULTS = {
  speech: false,
  sound: false,
  volume: 50,
  announce_game: true,
  announce_chat: true,
  announce_system: true,
  sound_game: true,
  sound_chat: true,
};

const KEY = "zanzibar.settings";

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

let values = load();
const listeners = new Set();

export const settings = {
  get(name) {
    return values[name];
  },
  set(name, value) {
    values = { ...values, [name]: value };
    localStorage.setItem(KEY, JSON.stringify(values));
    for (const fn of listeners) fn(name, value);
  },
  onChange(fn) {
    listeners.add(fn);
  },
};
