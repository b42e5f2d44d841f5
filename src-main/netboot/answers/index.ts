export { AnswerTemplateService, type AnswerTemplateServiceDeps, type AnswerTemplateUsageCheck, type AnswerTaskLookup } from './answer-template-service.js';
export { answerRoutes, type AnswerRouteOperations } from './answers-routes.js';
export { PresetCatalog, defaultPresetDir, presetDefaults } from './preset-catalog.js';
export { CONTENT_TYPES, sampleAnswerContext } from './answer-data.js';
export { SECRET_MASK } from './answer-secrets.js';
