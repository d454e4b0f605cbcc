import { createStore, type StoreApi } from 'zustand/vanilla';
import { initialUiState, uiReducer, type UiAction, type UiState } from './ui-state.js';

/** The TUI's state with the one way to change it. */
export interface UiStore extends UiState {
  dispatch(action: UiAction): void;
}

/** A vanilla store around `uiReducer`, so the key dispatcher reads the newest state without re-subscribing. */
export function createUiStore(initial: Partial<UiState> = {}): StoreApi<UiStore> {
  return createStore<UiStore>()((set, get) => ({
    ...initialUiState,
    ...initial,
    dispatch(action) {
      const { dispatch: _dispatch, ...state } = get();
      const next = uiReducer(state, action);
      if (next !== state) set(next);
    },
  }));
}
