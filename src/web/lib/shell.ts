/** The element holding the studio UI; dialogs make it inert while they are open. */
export const SHELL_ID = "studio-shell";
