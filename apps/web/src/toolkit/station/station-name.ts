import { useCallback, useState } from 'react';

/** Where the browser keeps the name of its station (a bench, a dock door) across pages. */
const STATION_KEY = 'scanStation';

/**
 * The station's name, kept in the browser: every scan carries it onto the device's timeline and
 * the scan log. One name for every station page of the browser, as the bench is one.
 */
export function useStationName() {
  const [station, setStation] = useState(() => localStorage.getItem(STATION_KEY) ?? '');
  const change = useCallback((name: string) => {
    setStation(name);
    const kept = name.trim();
    if (kept) localStorage.setItem(STATION_KEY, kept);
    else localStorage.removeItem(STATION_KEY);
  }, []);
  return [station, change] as const;
}
