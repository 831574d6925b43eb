/** Reads one configuration variable, e.g. `readEnv` of ../http.ts. */
export type EnvReader = (name: string) => string | undefined;
