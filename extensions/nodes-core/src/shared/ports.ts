// Port names of the branching core nodes: the server takes them, the editor draws them.

/** If: 'true' for the first branch, 'true_1', 'true_2' ... for the next; 'false' is else. */
export const branchPort = (i: number) => (i === 0 ? 'true' : `true_${i}`);

/** Question with fixed options: one port per option; 'default' takes any other answer. */
export const optionPort = (i: number) => `branch_${i}`;
