// A 5x7 bitmap font (capital letters, digits, space, '-', '.', '!') and a
// text renderer: draws dark text on a light background into an RGB image,
// each font pixel a scale x scale square, softened by a (2 blur + 1)-square box filter so the
// strokes have anti-aliased edges like printed text. Host-independent.

const GLYPHS = {
  A: '.###.|#...#|#...#|#####|#...#|#...#|#...#', B: '####.|#...#|#...#|####.|#...#|#...#|####.',
  C: '.###.|#...#|#....|#....|#....|#...#|.###.', D: '####.|#...#|#...#|#...#|#...#|#...#|####.',
  E: '#####|#....|#....|####.|#....|#....|#####', F: '#####|#....|#....|####.|#....|#....|#....',
  G: '.###.|#...#|#....|#.###|#...#|#...#|.####', H: '#...#|#...#|#...#|#####|#...#|#...#|#...#',
  I: '.###.|..#..|..#..|..#..|..#..|..#..|.###.', J: '..###|...#.|...#.|...#.|...#.|#..#.|.##..',
  K: '#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#', L: '#....|#....|#....|#....|#....|#....|#####',
  M: '#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#', N: '#...#|#...#|##..#|#.#.#|#..##|#...#|#...#',
  O: '.###.|#...#|#...#|#...#|#...#|#...#|.###.', P: '####.|#...#|#...#|####.|#....|#....|#....',
  Q: '.###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#', R: '####.|#...#|#...#|####.|#.#..|#..#.|#...#',
  S: '.####|#....|#....|.###.|....#|....#|####.', T: '#####|..#..|..#..|..#..|..#..|..#..|..#..',
  U: '#...#|#...#|#...#|#...#|#...#|#...#|.###.', V: '#...#|#...#|#...#|#...#|#...#|.#.#.|..#..',
  W: '#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.', X: '#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#',
  Y: '#...#|#...#|.#.#.|..#..|..#..|..#..|..#..', Z: '#####|....#|...#.|..#..|.#...|#....|#####',
  0: '.###.|#...#|#..##|#.#.#|##..#|#...#|.###.', 1: '..#..|.##..|..#..|..#..|..#..|..#..|.###.',
  2: '.###.|#...#|....#|...#.|..#..|.#...|#####', 3: '#####|...#.|..#..|...#.|....#|#...#|.###.',
  4: '...#.|..##.|.#.#.|#..#.|#####|...#.|...#.', 5: '#####|#....|####.|....#|....#|#...#|.###.',
  6: '..##.|.#...|#....|####.|#...#|#...#|.###.', 7: '#####|....#|...#.|..#..|.#...|.#...|.#...',
  8: '.###.|#...#|#...#|.###.|#...#|#...#|.###.', 9: '.###.|#...#|#...#|.####|....#|...#.|.##..',
  ' ': '.....|.....|.....|.....|.....|.....|.....', '-': '.....|.....|.....|.###.|.....|.....|.....',
  '.': '.....|.....|.....|.....|.....|.##..|.##..', '!': '..#..|..#..|..#..|..#..|..#..|.....|..#..',
};

export const FONT_CHARS = Object.keys(GLYPHS).join('');

// lines: strings of FONT_CHARS. Returns {width, height, data} with data a
// Uint8Array of height * width * 3 RGB bytes, rows top to bottom.
export function renderText(lines, { width = 640, height = 640, scale = 5, left = 40, top = 60, lineGap = 95,
  ink = [20, 24, 40], paper = [250, 248, 240], blur = 3 } = {}) {
  const mask = new Float32Array(width * height);
  lines.forEach((line, li) => {
    let x0 = left;
    const y0 = top + li * lineGap;
    for (const ch of line) {
      const glyph = GLYPHS[ch];
      if (!glyph) throw new Error(`renderText: no glyph for ${JSON.stringify(ch)} (the font has ${FONT_CHARS})`);
      glyph.split('|').forEach((row, gy) => {
        for (let gx = 0; gx < 5; gx++) {
          if (row[gx] !== '#') continue;
          for (let y = y0 + gy * scale; y < y0 + (gy + 1) * scale; y++) {
            for (let x = x0 + gx * scale; x < x0 + (gx + 1) * scale; x++) {
              if (x >= 0 && x < width && y >= 0 && y < height) mask[y * width + x] = 1;
            }
          }
        }
      });
      x0 += 6 * scale;
    }
  });
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      let n = 0;
      for (let dy = -blur; dy <= blur; dy++) {
        for (let dx = -blur; dx <= blur; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy >= 0 && yy < height && xx >= 0 && xx < width) { s += mask[yy * width + xx]; n++; }
        }
      }
      const a = s / n;
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.round(paper[k] + (ink[k] - paper[k]) * a);
    }
  }
  return { width, height, data };
}
