import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/*
 * The barcode reader behind the camera scanner: the `barcode-detector` polyfill over ZXing's
 * WebAssembly. Its .wasm is one of our build's assets (Vite copies it from node_modules with a
 * hashed name), served by our own server: the library would otherwise fetch it from a CDN, which
 * the Content-Security-Policy does not allow and an agent's data must not depend on. Loaded only
 * when an agent opens the camera.
 */
prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) =>
      path.endsWith('.wasm') ? new URL(wasmUrl, window.location.href).href : prefix + path,
  },
});

/** The codes printed on SIM cards, pack and box labels. */
const FORMATS = ['code_128', 'code_39', 'itf', 'qr_code', 'data_matrix'] as const;

/** A reader of the codes in a video frame. */
export const createBarcodeReader = () => new BarcodeDetector({ formats: [...FORMATS] });
