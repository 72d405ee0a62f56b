import { CameraOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** How often a frame is read while the camera is open. */
const READ_EVERY_MS = 250;

type CameraState =
  { kind: 'starting' } | { kind: 'reading' } | { kind: 'unavailable'; message: string };

/** Why the camera cannot be used, in words an agent can act on. */
function unavailableMessage(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The camera is not allowed for this site. Allow it in the browser, or type the code.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return 'No camera was found on this device. Type the code instead.';
  }
  return 'The camera could not start. Type the code instead.';
}

/** Reads codes from the back camera until one is found or the dialog closes. */
function CameraView({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  // The latest handler, for the reading loop that starts once.
  const found = useRef(onCode);
  useEffect(() => {
    found.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const start = async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) {
          throw new DOMException('No camera API', 'NotFoundError');
        }
        const [media, { createBarcodeReader }] = await Promise.all([
          navigator.mediaDevices.getUserMedia({
            video: { facingMode: { ideal: 'environment' } },
            audio: false,
          }),
          import('./barcode-reader'),
        ]);
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        const reader = createBarcodeReader();
        setState({ kind: 'reading' });
        const read = async () => {
          if (stopped || !video.current) return;
          try {
            const [code] = await reader.detect(video.current);
            if (code?.rawValue && !stopped) {
              found.current(code.rawValue.trim());
              return;
            }
          } catch {
            // A frame that could not be read: the next one may be.
          }
          timer = setTimeout(() => void read(), READ_EVERY_MS);
        };
        void read();
      } catch (error) {
        if (!stopped) setState({ kind: 'unavailable', message: unavailableMessage(error) });
      }
    };
    void start();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  if (state.kind === 'unavailable') {
    return <Alert type="warning" showIcon title={state.message} data-testid="camera-unavailable" />;
  }
  return (
    <>
      <video
        ref={video}
        muted
        playsInline
        aria-label="Camera view"
        style={{ width: '100%', maxHeight: '60vh', background: '#000', borderRadius: 8 }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {state.kind === 'starting'
          ? 'Starting the camera…'
          : 'Hold the barcode inside the picture; it is read by itself.'}
      </Typography.Paragraph>
    </>
  );
}

/**
 * A button that opens the phone's camera and hands the first barcode it reads to `onCode`, as if
 * it had been typed: the page checks it (parseIccid) and sends it the same way. Typing stays the
 * way in when there is no camera. For the agent's scan fields: activation, receiving, returns.
 */
export function CameraScanButton({
  onCode,
  label = 'Scan with camera',
}: {
  onCode: (code: string) => void;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<CameraOutlined />} onClick={() => setOpen(true)} size="large">
        {label}
      </Button>
      <Modal
        open={open}
        title={label}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>Close</Button>}
        destroyOnHidden
      >
        {open && (
          <CameraView
            onCode={(code) => {
              setOpen(false);
              onCode(code);
            }}
          />
        )}
      </Modal>
    </>
  );
}
