import { Input } from 'antd';

/** The station's name, to type once at a bench; Enter goes back to scanning. */
export function StationNameInput({
  station,
  onChange,
  onDone,
}: {
  station: string;
  onChange: (name: string) => void;
  onDone: () => void;
}) {
  return (
    <Input
      aria-label="Station name"
      prefix="Station:"
      placeholder="e.g. dock-1"
      size="large"
      maxLength={60}
      value={station}
      onChange={(event) => onChange(event.target.value)}
      onPressEnter={onDone}
      style={{ width: 260 }}
    />
  );
}
