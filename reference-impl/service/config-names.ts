// Names of workflow variables and development-environment secrets, as real hosts take
// them: letters, digits and underscores, not starting with a digit, at most 255
// characters; stored upper-case and matched in any case.
export const CONFIG_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;
export const CONFIG_NAME_RULE = 'letters, digits and underscores, not starting with a digit, at most 255 characters';
