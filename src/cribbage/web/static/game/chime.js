// @ts-check
// The "your turn" chime (yourturn.js): two short notes made with WebAudio, no audio file;
// loaded only when the player chose the sound.

/** @type {AudioContext | null} */
let audio = null;

/** A two-note chime, generated; nothing where WebAudio is missing or blocked. */
export function chime() {
  try {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    [660, 880].forEach((freq, i) => {
      const ctx = /** @type {AudioContext} */ (audio);
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      const at = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.16);
    });
  } catch { /* no sound: the title still says it */ }
}

