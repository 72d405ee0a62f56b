import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { InputRef } from 'antd';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScanInput } from './scan-input';
import { useWedgeScanner } from './use-wedge-scanner';

/** A station: its scan field, a button, another field, and a dialog the button opens. */
function Station({ onScan }: { onScan: (code: string) => void }) {
  const field = useRef<InputRef>(null);
  const scanner = useWedgeScanner(field, true);
  const [dialog, setDialog] = useState(false);
  return (
    <div>
      <ScanInput ref={field} scanner={scanner} label="Scan" placeholder="Scan" onScan={onScan} />
      <input aria-label="Station name" />
      <button onClick={() => setDialog(true)}>Open</button>
      {dialog && (
        <div role="dialog" aria-label="Learn">
          <input aria-label="Model" />
          <button onClick={() => setDialog(false)}>Done</button>
        </div>
      )}
    </div>
  );
}

const scanField = () => screen.getByRole('textbox', { name: 'Scan' });
/** What runs once the current event is over: observers, then timers. */
const settle = () =>
  act(async () => {
    await Promise.resolve();
    vi.runAllTimers();
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// The first render loads antd's styles: slow on a busy machine.
describe('a wedge scanner at a station', { timeout: 30_000 }, () => {
  it('sends the code with Enter, trimmed, and empties the field', () => {
    const onScan = vi.fn();
    render(<Station onScan={onScan} />);
    expect(scanField()).toHaveProperty('value', '');
    fireEvent.change(scanField(), { target: { value: ' 356938035643809\r' } });
    fireEvent.keyDown(scanField(), { key: 'Enter', keyCode: 13 });
    expect(onScan).toHaveBeenCalledWith('356938035643809');
    expect(scanField()).toHaveProperty('value', '');
  });

  it('takes a character typed outside any field, and leaves other fields alone', () => {
    render(<Station onScan={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Open' });
    button.focus();
    fireEvent.keyDown(button, { key: '3' });
    expect(document.activeElement).toBe(scanField());

    const name = screen.getByRole('textbox', { name: 'Station name' });
    name.focus();
    fireEvent.keyDown(name, { key: 'd' });
    expect(document.activeElement).toBe(name);
    // Tab and Enter still work the page.
    button.focus();
    fireEvent.keyDown(button, { key: 'Enter' });
    expect(document.activeElement).toBe(button);
  });

  it("gets the focus back when the page's background is clicked", async () => {
    render(<Station onScan={vi.fn()} />);
    scanField().focus();
    fireEvent.blur(scanField(), { relatedTarget: null });
    await settle();
    expect(document.activeElement).toBe(scanField());
  });

  it('gets the focus back after a dialog, however the dialog gave it back', async () => {
    render(<Station onScan={vi.fn()} />);
    // Closed by its button: the dialog goes, and the focus with it.
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const model = screen.getByRole('textbox', { name: 'Model' });
    model.focus();
    fireEvent.keyDown(model, { key: 'a' });
    expect(document.activeElement).toBe(model);
    act(() => screen.getByRole('button', { name: 'Done' }).click());
    await settle();
    expect(document.activeElement).toBe(scanField());

    // Given back to the control that opened it (shell/dialog-focus.ts): the station takes it.
    const open = screen.getByRole('button', { name: 'Open' });
    fireEvent.click(open);
    screen.getByRole('textbox', { name: 'Model' }).focus();
    open.focus();
    await settle();
    expect(document.activeElement).toBe(scanField());
  });
});
