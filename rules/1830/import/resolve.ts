// Turns an 18xx.games action list into the actions that count: undo/redo resolved the way
// 18xx.games does it, then each program_* action's auto_actions spliced in after it.
export interface Raw18xxAction {
  type: string;
  id?: number;
  entity?: string | number;
  entity_type?: string;
  action_id?: number;
  auto_actions?: Raw18xxAction[];
  [key: string]: unknown;
}

/** The kept actions in order (undone ones removed). */
export function resolveUndo(actions: Raw18xxAction[]): Raw18xxAction[] {
  const kept: (Raw18xxAction | null)[] = new Array(actions.length).fill(null);
  const undoStack: [Raw18xxAction, number][][] = [];
  actions.forEach((action, index) => {
    if (action.type === 'undo') {
      let to: number;
      if (action.action_id !== undefined && action.action_id !== null) {
        if (action.action_id === 0) to = 0;
        else {
          const idx = actions.findIndex((a) => a.id === action.action_id);
          if (idx < 0) throw new Error(`undo to unknown action ${action.action_id}`);
          to = idx + 1;
        }
      } else {
        to = 0;
        for (let i = index - 1; i >= 0; i--)
          if (kept[i] && kept[i]!.type !== 'message') {
            to = i;
            break;
          }
      }
      const undone: [Raw18xxAction, number][] = [];
      for (let i = to; i < index; i++) {
        const a = kept[i];
        if (!a || a.type === 'message') continue;
        kept[i] = null;
        undone.push([a, i]);
      }
      undoStack.push(undone);
    } else if (action.type === 'redo') {
      const last = undoStack.pop() ?? [];
      for (const [a, i] of last) kept[i] = a;
    } else {
      if (action.type !== 'message') undoStack.length = 0;
      kept[index] = action;
    }
  });
  return kept.filter((a): a is Raw18xxAction => a !== null && a.type !== 'message');
}

export interface Effective {
  /** The export's id of the action this came from (auto actions carry their parent's id). */
  id: number;
  action: Raw18xxAction;
  auto: boolean;
}

/** Kept actions with auto_actions spliced in; program_* and program_disable dropped. */
export function effectiveActions(actions: Raw18xxAction[]): Effective[] {
  const out: Effective[] = [];
  for (const a of resolveUndo(actions)) {
    const id = a.id ?? 0;
    if (!a.type.startsWith('program_')) out.push({ id, action: a, auto: false });
    for (const sub of a.auto_actions ?? []) {
      if (sub.type.startsWith('program_')) continue;
      out.push({ id, action: sub, auto: true });
    }
  }
  return out;
}
