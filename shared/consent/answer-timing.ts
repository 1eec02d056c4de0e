/**
 * Holds an answer until a wall-clock deadline, so its timing says nothing about the data: the
 * public routes that must answer alike for every email (withdraw-public, portal-link) use it.
 */
export const waitUntil = (deadline: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
