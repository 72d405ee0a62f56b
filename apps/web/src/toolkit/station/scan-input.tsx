import { Input, type InputRef } from 'antd';
import { useState, type CSSProperties, type Ref } from 'react';
import type { WedgeScanner } from './use-wedge-scanner';

/**
 * The scan field of a station: it keeps the focus (see useWedgeScanner), and Enter sends the code
 * as read, trimmed, then empties the field for the next one.
 */
export function ScanInput({
  ref,
  scanner,
  label,
  placeholder,
  onScan,
  style,
}: {
  /** The field the scanner keeps the focus in: the ref given to useWedgeScanner. */
  ref: Ref<InputRef>;
  scanner: WedgeScanner;
  /** The field's name, e.g. "Scan an IMEI". */
  label: string;
  placeholder: string;
  onScan: (code: string) => void;
  style?: CSSProperties;
}) {
  const [typed, setTyped] = useState('');
  return (
    <Input
      ref={ref}
      aria-label={label}
      placeholder={placeholder}
      size="large"
      autoFocus
      autoComplete="off"
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      onPressEnter={(event) => {
        // What the field holds now: a scanner types faster than a render.
        const code = event.currentTarget.value.trim();
        setTyped('');
        if (code) onScan(code);
      }}
      onBlur={scanner.onBlur}
      style={{ width: 560, maxWidth: '100%', ...style }}
    />
  );
}
