import { describe, expect, it } from 'vitest';
import { ErrorPanelStore } from '../src/client/store.ts';
import { Clock, Hub, MemoryStorage } from './fakes.ts';

function setup(path = '/a') {
  const clock = new Clock();
  const storage = new MemoryStorage();
  const warnings: string[] = [];
  const store = new ErrorPanelStore(path, { ...clock.env(), storage, warn: (m) => void warnings.push(m) });
  return { clock, storage, store, warnings };
}

describe('error panel store', () => {
  it('is hidden without messages; a new error pops up and clears to the icon 2000 ms after the last one', () => {
    const { clock, store } = setup();
    expect(store.getSnapshot().state).toBe('hidden');
    store.add({ message: 'first' });
    expect(store.getSnapshot().state).toBe('popup');
    clock.advance(1500);
    store.add({ message: 'second' });
    clock.advance(1999);
    expect(store.getSnapshot().state).toBe('popup');
    expect(store.getSnapshot().popup.map((m) => m.message)).toEqual(['second', 'first']);
    clock.advance(1);
    expect(store.getSnapshot().state).toBe('collapsed');
    expect(store.getSnapshot().popup).toEqual([]);
  });

  it('a popup drawn late (the panel code arrived after the error) still shows for 2000 ms', () => {
    const { clock, store } = setup();
    store.add({ message: 'first' });
    clock.advance(800);
    store.shown();
    clock.advance(1999);
    expect(store.getSnapshot().state).toBe('popup');
    clock.advance(1);
    expect(store.getSnapshot().state).toBe('collapsed');
    store.shown();
    expect(store.getSnapshot().state).toBe('collapsed');
  });

  it('gives each message an id of timestamp plus random text', () => {
    const { clock, store } = setup();
    const m = store.add({ message: 'x', detail: '400 · 400001 · LOG' });
    expect(m.id).toMatch(new RegExp(`^${clock.now}-[a-z0-9]+$`));
    expect(m.timestamp).toBe(clock.now);
  });

  it('while expanded, new errors go only to the full list', () => {
    const { store, clock } = setup();
    store.add({ message: 'one' });
    store.expand();
    store.add({ message: 'two' });
    expect(store.getSnapshot().state).toBe('expanded');
    expect(store.getSnapshot().popup).toEqual([]);
    expect(store.getSnapshot().messages.map((m) => m.message)).toEqual(['two', 'one']);
    clock.advance(5000);
    expect(store.getSnapshot().state).toBe('expanded');
    store.collapse();
    expect(store.getSnapshot().state).toBe('collapsed');
  });

  it('deletes singly and clears all; with nothing left it hides', () => {
    const { store } = setup();
    const a = store.add({ message: 'a' });
    store.add({ message: 'b' });
    store.remove(a.id);
    expect(store.getSnapshot().messages.map((m) => m.message)).toEqual(['b']);
    store.clear();
    expect(store.getSnapshot()).toMatchObject({ state: 'hidden', messages: [] });
  });

  it('keeps messages per page path in session storage', () => {
    const { store, storage } = setup('/a');
    store.add({ message: 'on a' });
    store.setPath('/b');
    expect(store.getSnapshot().messages).toEqual([]);
    store.add({ message: 'on b' });
    expect(JSON.parse(storage.data.get('error-tip-store-/a')!)[0].message).toBe('on a');
    expect(JSON.parse(storage.data.get('error-tip-store-/b')!)[0].message).toBe('on b');
    store.setPath('/a');
    expect(store.getSnapshot().messages.map((m) => m.message)).toEqual(['on a']);
    // A new store for the same path (a reload) finds them again.
    const again = new ErrorPanelStore('/a', { storage });
    expect(again.getSnapshot()).toMatchObject({ state: 'collapsed' });
    expect(again.getSnapshot().messages[0].message).toBe('on a');
  });

  it('only warns when storage fails', () => {
    const { store, storage, warnings } = setup();
    storage.failing = true;
    expect(() => store.add({ message: 'still shown' })).not.toThrow();
    expect(store.getSnapshot().messages).toHaveLength(1);
    expect(warnings).toEqual(['could not store messages']);
    expect(() => store.setPath('/elsewhere')).not.toThrow();
    expect(warnings).toContain('could not read stored messages');
  });
});

describe('sync between tabs', () => {
  function tabs() {
    const hub = new Hub();
    const clock = new Clock();
    const make = (path: string) =>
      new ErrorPanelStore(path, {
        ...clock.env(),
        storage: new MemoryStorage(),
        channel: hub.channel(),
        warn: () => undefined,
      });
    return { hub, clock, make };
  }

  it('tabs on the same path share messages; a tab on another path does not apply them', () => {
    const { make } = tabs();
    const a = make('/p');
    const b = make('/p');
    const c = make('/q');
    a.add({ message: 'from a' });
    expect(b.getSnapshot().messages.map((m) => m.message)).toEqual(['from a']);
    expect(b.getSnapshot().state).toBe('collapsed');
    expect(c.getSnapshot().messages).toEqual([]);
    b.clear();
    expect(a.getSnapshot()).toMatchObject({ state: 'hidden', messages: [] });
  });

  it('a new tab asks for the state of its path and gets it', () => {
    const { make, hub } = tabs();
    const a = make('/p');
    a.add({ message: 'earlier' });
    const late = make('/p');
    expect(hub.posted.some((m) => m.type === 'REQUEST_STATE' && m.path === '/p')).toBe(true);
    expect(late.getSnapshot().messages.map((m) => m.message)).toEqual(['earlier']);
  });

  it('blocks every further sync on a path after more than 50 syncs within 1 second', () => {
    const { make, clock } = tabs();
    const a = make('/p');
    const b = make('/p');
    for (let i = 0; i < 60; i++) a.add({ message: `m${i}` });
    expect(a.isSyncBlocked('/p')).toBe(true);
    const seenByB = b.getSnapshot().messages.length;
    expect(seenByB).toBeLessThan(60);
    clock.advance(5000);
    a.add({ message: 'after the storm' });
    expect(b.getSnapshot().messages.length).toBe(seenByB);
    // Other paths still sync.
    a.setPath('/other');
    b.setPath('/other');
    a.add({ message: 'fine' });
    expect(b.getSnapshot().messages.map((m) => m.message)).toEqual(['fine']);
  });
});
