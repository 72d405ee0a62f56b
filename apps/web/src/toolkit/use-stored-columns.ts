import { useState } from 'react';
import type { ListColumn } from './resource-page-config';

const storageKey = (list: string) => `columns:${list}`;

/** The columns a user chose for a list, remembered in this browser. */
export function useStoredColumns<T>(list: string, columns: readonly ListColumn<T>[]) {
  const [shown, setShownState] = useState<Set<string>>(() => {
    const stored = localStorage.getItem(storageKey(list));
    const known = new Set(columns.map((column) => column.key));
    if (stored) {
      try {
        const keys = (JSON.parse(stored) as string[]).filter((key) => known.has(key));
        if (keys.length > 0) return new Set(keys);
      } catch {
        localStorage.removeItem(storageKey(list));
      }
    }
    return new Set(columns.filter((column) => !column.hidden).map((column) => column.key));
  });
  const setShown = (keys: Set<string>) => {
    if (keys.size === 0) return;
    localStorage.setItem(storageKey(list), JSON.stringify([...keys]));
    setShownState(keys);
  };
  return [shown, setShown] as const;
}
