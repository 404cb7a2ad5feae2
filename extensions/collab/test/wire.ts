// Raw y-websocket messages, for tests that speak the protocol by hand (a forged presence).
import * as lib0 from 'lib0/encoding';

export const encoding = {
  /** An awareness message (type 1) with one client's state. */
  awareness(clientId: number, clock: number, state: unknown): Uint8Array {
    const inner = lib0.createEncoder();
    lib0.writeVarUint(inner, 1);
    lib0.writeVarUint(inner, clientId);
    lib0.writeVarUint(inner, clock);
    lib0.writeVarString(inner, JSON.stringify(state));
    const e = lib0.createEncoder();
    lib0.writeVarUint(e, 1);
    lib0.writeVarUint8Array(e, lib0.toUint8Array(inner));
    return lib0.toUint8Array(e);
  },
};
