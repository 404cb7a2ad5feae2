// Enumerations of spec 000 section 3.
export const WorkflowMode = { Workflow: 0, Imageflow: 1, SceneFlow: 2, ChatFlow: 3, All: 100 } as const;
export const DevelopmentStatus = { CanNotSubmit: 1, CanSubmit: 2, HadSubmit: 3, Deleted: 4 } as const;
export const PublishStatus = { CanNotPublish: 1, CanPublish: 2, HadPublished: 3, Deleted: 4, Unlisted: 5 } as const;
export const ListStatus = { UnPublished: 1, HadPublished: 2 } as const;
export const NodeExecStatus = { Waiting: 1, Running: 2, Success: 3, Fail: 4 } as const;
export const RunStatus = { Running: 1, Success: 2, Fail: 3, Cancel: 4 } as const;
export const ExecuteMode = { TestRun: 1, Run: 2, NodeDebug: 3 } as const;
export const RunMode = { Sync: 0, Stream: 1, Async: 2 } as const;
export const OperateType = { Draft: 0, Submit: 1, Publish: 2, PublishPPE: 3, SubmitPublishPPE: 4 } as const;
export const DeleteCheck = { CanDelete: 0, RejectProductDraft: 1, UnListProduct: 2 } as const;
export const OrderBy = { CreateTime: 0, UpdateTime: 1, PublishTime: 2, Hot: 3, Id: 4 } as const;
export const SortDirection = { Asc: 1, Desc: 2 } as const;
export const InterruptType = {
  LocalPlugin: 1,
  Question: 2,
  RequireInfos: 3,
  SceneChat: 4,
  Input: 5,
  OauthPlugin: 7,
} as const;
export const ConditionType = {
  Equal: 1,
  NotEqual: 2,
  LengthGt: 3,
  LengthGtEqual: 4,
  LengthLt: 5,
  LengthLtEqual: 6,
  Contains: 7,
  NotContains: 8,
  Null: 9,
  NotNull: 10,
  True: 11,
  False: 12,
  Gt: 13,
  GtEqual: 14,
  Lt: 15,
  LtEqual: 16,
} as const;
export const IfRelation = { And: 1, Or: 2 } as const;
export const FieldTypeCode = { object: 1, string: 2, integer: 3, boolean: 4, array: 5, number: 6 } as const;
export const ValidationErrorType = { Node: 1, Path: 2, ConcurrentPath: 3 } as const;
