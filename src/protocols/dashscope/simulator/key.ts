/** The key the simulated vendor accepts unless started with another. */
export const SIMULATOR_KEY = 'sk-sim-dashscope';
