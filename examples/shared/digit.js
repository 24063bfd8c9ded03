// Renders a handwritten-looking digit into a 28x28 float32 image the way MNIST
// stores them: white ink (0..255) on black, centred in the 20x20 middle. The
// strokes are polylines in a 0..1 box, drawn as thick anti-aliased lines.

const STROKES = {
  3: [[[0.2, 0.15], [0.55, 0.05], [0.8, 0.2], [0.75, 0.4], [0.45, 0.5], [0.8, 0.62], [0.82, 0.85], [0.5, 0.97], [0.15, 0.85]]],
  7: [[[0.15, 0.1], [0.85, 0.1], [0.55, 0.55], [0.4, 0.95]]],
};

function distanceToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

export function renderDigit(digit = 7) {
  const strokes = STROKES[digit];
  if (!strokes) throw new Error(`no strokes for digit ${digit}; have ${Object.keys(STROKES).join(', ')}`);
  const img = new Float32Array(28 * 28);
  const halfWidth = 1.3; // pixels
  for (let y = 0; y < 28; y++) {
    for (let x = 0; x < 28; x++) {
      let d = Infinity;
      for (const line of strokes) {
        for (let i = 1; i < line.length; i++) {
          const a = [4 + 20 * line[i - 1][0], 4 + 20 * line[i - 1][1]];
          const b = [4 + 20 * line[i][0], 4 + 20 * line[i][1]];
          d = Math.min(d, distanceToSegment(x + 0.5, y + 0.5, a, b));
        }
      }
      img[y * 28 + x] = 255 * Math.max(0, Math.min(1, halfWidth + 0.5 - d));
    }
  }
  return img;
}
