export { guarded } from './guarded.js';
export { NoAnswer, withinWait } from './wait.js';
