// Chess figurines drawn by us, one for every piece of Zanzibar-S (and so of
// orthodox chess), as small SVG pictures on a 45 x 45 grid: a body filled
// with the side's colour and outlined with the other, on a common pedestal.
// Each shape says what the piece is (a cross for the King, a gear for the
// Machine, a barrel on a wheel for the Cannon...). Letters without a drawing
// get a disc with their letter, so a variant with new pieces still shows.

import { s } from "./dom.js";

const BASE = { body: ["M10 36.5h25a1.5 1.5 0 0 1 1.5 1.5v2a1.5 1.5 0 0 1-1.5 1.5h-25a1.5 1.5 0 0 1-1.5-1.5v-2a1.5 1.5 0 0 1 1.5-1.5z"] };
const STAND = "M14 36.5 L17 29 H28 L31 36.5 Z";

/** A disc as a path, so that it is filled and outlined like the body. */
function disc(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 1 ${2 * r} 0a${r} ${r} 0 1 1 ${-2 * r} 0z`;
}

/** Each piece: body paths (filled), line paths (stroked), dots ([cx, cy, r], filled with the line colour). */
const SHAPES = {
  p: { body: [STAND, "M22.5 13.5a6.5 6.5 0 1 1 0 13a6.5 6.5 0 1 1 0-13z"] },
  i: {
    body: [STAND, "M22.5 16.5a6 6 0 1 1 0 12a6 6 0 1 1 0-12z", "M16.5 15.5 L17.5 8.5 L20.5 12 L22.5 7.5 L24.5 12 L27.5 8.5 L28.5 15.5 Z"],
  },
  k: {
    body: ["M12 36.5 C11 28 15 21 22.5 21 C30 21 34 28 33 36.5 Z", "M21 5 H24 V9 H28 V12 H24 V20 H21 V12 H17 V9 H21 Z"],
    line: ["M15 30.5 H30"],
  },
  q: {
    body: ["M11.5 36.5 L9 14 L16 25 L17.5 11.5 L22.5 24 L27.5 11.5 L29 25 L36 14 L33.5 36.5 Z", disc(9, 12.5, 2.4), disc(17.5, 10, 2.4), disc(27.5, 10, 2.4), disc(36, 12.5, 2.4)],
    line: ["M13 31 H32"],
  },
  r: {
    body: ["M12 36.5 V32.5 H15 V18 H12 V9 H16.5 V12.5 H20 V9 H25 V12.5 H28.5 V9 H33 V18 H30 V32.5 H33 V36.5 Z"],
    line: ["M15 18 H30", "M15 32.5 H30"],
  },
  b: {
    body: [STAND, "M15.5 30 C13 23 16.5 16 22.5 10.5 C28.5 16 32 23 29.5 30 Z", disc(22.5, 8, 2.4)],
    line: ["M24.5 15.5 L20 22", "M18 26 H27"],
  },
  n: {
    body: ["M14 36.5 C14 29 17 25.5 20 21.5 C16.5 22.5 12.5 22 10.5 19.5 C11 13.5 16.5 8.5 23.5 8.5 C31 8.5 34.5 16 34.5 24 V36.5 Z", "M21 9.2 L20.2 4.8 L25.5 8.6 Z"],
    dots: [[19.5, 14.5, 1.6]],
  },
  // Camel: two humps and a long head forward.
  m: {
    body: ["M9 36.5 L11 25 C12 18.5 16.5 17.5 18.5 22.5 C20 15.5 25 15.5 26.5 22.5 L30 21 L31.5 12 L37.5 11 L38.5 15 L34.5 16.5 L33 36.5 Z"],
    line: ["M15 30 H28"],
    dots: [[35.5, 13, 1.3]],
  },
  // Giraffe: the longest neck, spotted.
  z: {
    body: ["M13 36.5 L15.5 25 H26 L27.5 9 L34 6.5 L36 10.5 L31.5 12 L31 25 L31.5 36.5 Z", "M26.8 9.4 L26.2 4.6 H28 L28.6 9 Z", "M29.4 8.4 L29 3.8 H30.8 L31.2 7.8 Z"],
    dots: [[19, 30, 1.8], [24, 29, 1.8], [29.3, 17, 1.6], [29.2, 21.5, 1.6], [21.5, 33.5, 1.5], [33.2, 8.4, 1.2]],
  },
  // Elephant: a big ear and a trunk.
  e: {
    body: [STAND, "M22 11 C29 11 33 15.5 32.5 21 C32.5 24 34.5 27 35.5 31 L32.5 32 C31 28.5 29.5 27 27 26.5 C25.5 29 18 29.5 15 27 C12 24.5 12 14 22 11 Z", "M15.5 14 C10 14 8.5 21 12.5 25.5 C14.5 24 15.5 19 15.5 14 Z"],
    dots: [[25.5, 17.5, 1.7]],
  },
  // Machine: a gear.
  w: {
    body: [STAND, "M20.5 8 H24.5 L25.3 11.3 L28.5 12.6 L31.3 10.8 L34.2 13.7 L32.4 16.5 L33.7 19.7 L37 20.5 V24.5 L33.7 25.3 L32.4 28.5 L29 27.5 L16 27.5 L12.6 28.5 L11.3 25.3 L8 24.5 V20.5 L11.3 19.7 L12.6 16.5 L10.8 13.7 L13.7 10.8 L16.5 12.6 L19.7 11.3 Z"],
    line: ["M22.5 16.5a5.5 5.5 0 1 1 0 11a5.5 5.5 0 1 1 0-11z"],
  },
  // Cannon: a barrel on a wheel.
  c: {
    body: ["M7 27 L33 15.5 L36 21.5 L10 32 Z", "M17.5 25.5a7 7 0 1 1 0 14a7 7 0 1 1 0-14z"],
    line: ["M33 15.5 L36 21.5"],
    dots: [[17.5, 32.5, 2]],
  },
  // Crocodile: long jaws full of teeth.
  v: {
    body: [STAND, "M5.5 25 L27 18.5 C33 16.5 39.5 19 39.5 24 C39.5 28.5 34 30.5 28 30 L5.5 28 Z"],
    line: ["M8 26.3 L10 24.6 L12 26 L14 23.9 L16 25.6 L18 23.2 L20 25.2 L22 22.6 L24 24.8"],
    dots: [[32.5, 21.5, 1.6]],
  },
  // Eagle: spread wings, head and beak.
  g: {
    body: [STAND, "M22.5 9 C25 9 26.5 11 26 13.5 L27 19 L38.5 12.5 L35 21.5 L38 22 L31 27 L27.5 27 L26 29 H19 L17.5 27 H14 L7 22 L10 21.5 L6.5 12.5 L18 19 L19 13.5 C18.5 11 20 9 22.5 9 Z"],
    line: ["M22.5 19 V26"],
    dots: [[22.5, 12, 1.4]],
  },
  // Rhinoceros: the horn on the snout.
  u: {
    body: [STAND, "M9.5 29 C9 21.5 14 17 21 16.5 L24 12 L26 16.5 L29.5 8 L32 18 C35.5 20.5 37 24.5 36 29 Z", "M14.2 17.8 L12.8 12.8 L17.8 16.6 Z"],
    dots: [[22, 21.5, 1.6]],
  },
  // Lion: a face in a mane.
  l: {
    body: [
      STAND,
      "M22.5 5.5 L25.5 9.5 L30 7.5 L30.5 12.5 L35.5 13.5 L33 18 L36.5 21.5 L32 23.5 L33 28.5 L28 28 L25.5 31.5 L22.5 28.5 L19.5 31.5 L17 28 L12 28.5 L13 23.5 L8.5 21.5 L12 18 L9.5 13.5 L14.5 12.5 L15 7.5 L19.5 9.5 Z",
      "M22.5 12.5a6.5 7 0 1 1 0 14a6.5 7 0 1 1 0-14z",
    ],
    line: ["M22.5 20.5 V23 M20.5 24.5 Q22.5 26 24.5 24.5"],
    dots: [[20, 18, 1.2], [25, 18, 1.2]],
  },
  // Buffalo: wide curved horns.
  f: {
    body: [STAND, "M16.5 15.5 H28.5 L30.5 24 C30 28.5 26.5 30 22.5 30 C18.5 30 15 28.5 14.5 24 Z", "M16.5 16.5 C10 17.5 6 14 6.5 8.5 C9 12 12.5 13 16.5 12.5 Z", "M28.5 16.5 C35 17.5 39 14 38.5 8.5 C36 12 32.5 13 28.5 12.5 Z"],
    dots: [[19.5, 20, 1.3], [25.5, 20, 1.3], [20.5, 26.5, 1.1], [24.5, 26.5, 1.1]],
  },
};

/** The letters this file draws. */
export const DRAWN = Object.keys(SHAPES);

/**
 * A figurine: `letter` (any case) and `color` ("w" or "b"). Hidden from
 * assistive technology (the square's label names the piece).
 */
export function pieceSvg(letter, color) {
  const key = String(letter).toLowerCase();
  const side = color === "w" ? "w" : "b";
  const shape = SHAPES[key];
  const common = { stroke: "currentColor", "stroke-width": 1.6, "stroke-linejoin": "round", "stroke-linecap": "round" };
  const parts = [];
  if (shape) {
    for (const d of [...BASE.body, ...shape.body]) parts.push(s("path", { d, class: `body-${side}`, ...common }));
    for (const d of shape.line || []) parts.push(s("path", { d, class: `line-${side}`, "stroke-width": 1.8, "stroke-linecap": "round" }));
    for (const [cx, cy, r] of shape.dots || []) parts.push(s("circle", { cx, cy, r, class: `dot-${side}` }));
  } else {
    parts.push(s("circle", { cx: 22.5, cy: 22.5, r: 17, class: `body-${side}`, ...common }));
    parts.push(s("text", { x: 22.5, y: 33, "text-anchor": "middle", class: `dot-${side}` }, key.toUpperCase()));
  }
  return s("svg", { viewBox: "0 0 45 45", class: "piece-svg", "aria-hidden": "true", focusable: "false", "data-piece": `${side}${key}` }, parts);
}
